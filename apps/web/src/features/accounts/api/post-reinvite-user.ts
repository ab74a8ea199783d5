import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { InviteUserAnswer, ReinviteUserBody } from '@fieldlink/api/users';
import { apiPost } from '../../../lib/api-client';

export const postReinviteUser = (body: ReinviteUserBody) => apiPost<InviteUserAnswer>('/reinvite-user', body);

export const useReinviteUserMutation = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: postReinviteUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['account'] }),
  });
};
