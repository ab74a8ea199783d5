import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { InviteUserAnswer, ReinviteUserBody } from '@fieldlink/api/users';
import { apiPost } from '../../../lib/api-client';
import { OWN_FAILURE_REPORT } from '../../../lib/query-client';

export const postReinviteUser = (body: ReinviteUserBody) => apiPost<InviteUserAnswer>('/reinvite-user', body);

export const useReinviteUserMutation = () => {
  const queryClient = useQueryClient();
  return useMutation({
    meta: OWN_FAILURE_REPORT,
    mutationFn: postReinviteUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['account'] }),
  });
};
