import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { InviteUserAnswer, InviteUserBody } from '@fieldlink/api/users';
import { apiPost } from '../../../lib/api-client';

export const postInviteUser = (body: InviteUserBody) => apiPost<InviteUserAnswer>('/invite-user', body);

export const useInviteUserMutation = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: postInviteUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['account'] }),
  });
};
