import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RecoveryCodesAnswer, TotpCodeBody } from '@fieldlink/api/mfa';
import { apiPost } from '../../../lib/api-client';
import { OWN_FAILURE_REPORT } from '../../../lib/query-client';
import { MFA_KEY } from './get-mfa';

export const postTotpConfirm = (body: TotpCodeBody) => apiPost<RecoveryCodesAnswer>('/user/mfa/totp/confirm', body);

/** Turns the authenticator app on with its first code; answers the recovery codes, once. */
export const useConfirmTotpMutation = () => {
  const queryClient = useQueryClient();
  return useMutation({
    meta: OWN_FAILURE_REPORT,
    mutationFn: postTotpConfirm,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: MFA_KEY }),
  });
};
