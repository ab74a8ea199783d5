import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PutUserAnswer, PutUserBody } from '@fieldlink/api/users';
import { apiRequest } from '../../../lib/api-client';
import { nextUserUpdateId } from '../../../lib/user-update-id';

/** `PUT /user` with the next update id of this tab, so a stale answer can be told apart (§4). */
export const putUser = (body: Omit<PutUserBody, 'updateId'>) =>
  apiRequest<PutUserAnswer>('PUT', '/user', { body: { ...body, updateId: nextUserUpdateId() } });

export const usePutUserMutation = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: putUser,
    onSuccess: (_answer, body) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['user', body.email] }),
        queryClient.invalidateQueries({ queryKey: ['account'] }),
      ]),
  });
};
