import { useMutation } from '@tanstack/react-query';
import { startAuthentication } from '@simplewebauthn/browser';
import type { PasskeyAuthenticationCredential, PasskeyRequestOptions } from '@fieldlink/api/passkeys';
import type { JwtAnswer } from '@fieldlink/api/session';
import { apiPost } from '../../../lib/api-client';
import { OWN_FAILURE_REPORT } from '../../../lib/query-client';

/** Runs the browser's passkey ceremony for these options: the passkey's answer. */
export async function passkeyAnswer(options: PasskeyRequestOptions): Promise<PasskeyAuthenticationCredential> {
  const answer = await startAuthentication({
    optionsJSON: options as Parameters<typeof startAuthentication>[0]['optionsJSON'],
  });
  return answer as PasskeyAuthenticationCredential;
}

/** Signs in with a passkey and no e-mail or password: the server's challenge, the ceremony, the check. */
export async function postSigninPasskey(): Promise<JwtAnswer> {
  const options = await apiPost<PasskeyRequestOptions>('/signin/passkey/options', {});
  return apiPost<JwtAnswer>('/signin/passkey', { credential: await passkeyAnswer(options) });
}

export const useSigninPasskeyMutation = () => useMutation({ meta: OWN_FAILURE_REPORT, mutationFn: postSigninPasskey });
