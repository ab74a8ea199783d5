import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RecoveryCodesAnswer, TotpCodeBody } from '@fieldlink/api/mfa';
import { apiRequest } from '../../../lib/api-client';
import { OWN_FAILURE_REPORT } from '../../../lib/query-client';
import { MFA_KEY } from './get-mfa';

/** With `enrolmentToken`, the answer also carries the session the sign-in held back (issue 38). */
export const postTotpConfirm = ({ enrolmentToken, ...body }: TotpCodeBody & { enrolmentToken?: string }) =>
  apiRequest<RecoveryCodesAnswer>('POST', '/user/mfa/totp/confirm', { body, token: enrolmentToken });

/** Turns the authenticator app on with its first code; answers the recovery codes, once. */
export const useConfirmTotpMutation = () => {
  const queryClient = useQueryClient();
  return useMutation({
    meta: OWN_FAILURE_REPORT,
    mutationFn: postTotpConfirm,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: MFA_KEY }),
  });
};
