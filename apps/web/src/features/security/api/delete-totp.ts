import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TotpCodeBody } from '@fieldlink/api/mfa';
import type { OkAnswer } from '@fieldlink/api/errors';
import { apiRequest } from '../../../lib/api-client';
import { OWN_FAILURE_REPORT } from '../../../lib/query-client';
import { MFA_KEY } from './get-mfa';

export const deleteTotp = (body: TotpCodeBody) => apiRequest<OkAnswer>('DELETE', '/user/mfa/totp', { body });

/** Turns the authenticator app off with a current code or a recovery code. */
export const useTurnOffTotpMutation = () => {
  const queryClient = useQueryClient();
  return useMutation({
    meta: OWN_FAILURE_REPORT,
    mutationFn: deleteTotp,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: MFA_KEY }),
  });
};
