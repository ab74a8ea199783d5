import { useMutation, useQueryClient } from '@tanstack/react-query';
import { startRegistration } from '@simplewebauthn/browser';
import type { PasskeyAddAnswer, PasskeyCreationOptions, PasskeyRegistrationCredential } from '@fieldlink/api/passkeys';
import { apiRequest } from '../../../lib/api-client';
import { OWN_FAILURE_REPORT } from '../../../lib/query-client';
import { MFA_KEY } from './get-mfa';
import { PASSKEYS_KEY } from './get-passkeys';

/**
 * Adds a passkey: the server's options, the browser's registration ceremony (the person picks where
 * to keep it and unlocks it), then the server verifies and keeps it. With `enrolmentToken` (the
 * set-up a sign-in asked for) the answer also carries the session the sign-in held back.
 */
export async function addPasskey({ name, enrolmentToken }: { name: string; enrolmentToken?: string }) {
  const options = await apiRequest<PasskeyCreationOptions>('POST', '/user/passkeys/options', {
    token: enrolmentToken,
  });
  const credential = await startRegistration({
    optionsJSON: options as Parameters<typeof startRegistration>[0]['optionsJSON'],
  });
  return apiRequest<PasskeyAddAnswer>('POST', '/user/passkeys', {
    token: enrolmentToken,
    body: { name, credential: credential as PasskeyRegistrationCredential },
  });
}

export const useAddPasskeyMutation = () => {
  const queryClient = useQueryClient();
  return useMutation({
    meta: OWN_FAILURE_REPORT,
    mutationFn: addPasskey,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: PASSKEYS_KEY }),
        queryClient.invalidateQueries({ queryKey: MFA_KEY }),
      ]),
  });
};
