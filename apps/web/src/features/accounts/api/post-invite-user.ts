import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { InviteUserAnswer, InviteUserBody } from '@fieldlink/api/users';
import { apiPost } from '../../../lib/api-client';
import { OWN_FAILURE_REPORT } from '../../../lib/query-client';

export const postInviteUser = (body: InviteUserBody) => apiPost<InviteUserAnswer>('/invite-user', body);

export const useInviteUserMutation = () => {
  const queryClient = useQueryClient();
  return useMutation({
    meta: OWN_FAILURE_REPORT,
    mutationFn: postInviteUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['account'] }),
  });
};
