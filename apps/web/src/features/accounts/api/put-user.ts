import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PutUserAnswer, PutUserBody, User } from '@fieldlink/api/users';
import { isStaleUserAnswer } from '@fieldlink/domain/user-rules';
import { apiRequest } from '../../../lib/api-client';
import { latestUserUpdateId, nextUserUpdateId } from '../../../lib/user-update-id';
import { OWN_FAILURE_REPORT } from '../../../lib/query-client';

/** `PUT /user` with the next update id of this tab, so a stale answer can be told apart (§4). */
export const putUser = (body: Omit<PutUserBody, 'updateId'>) =>
  apiRequest<PutUserAnswer>('PUT', '/user', { body: { ...body, updateId: nextUserUpdateId() } });

/**
 * Saves a user. The answer's props are shown at once, unless the answer is stale (§4: its update id
 * differs from the latest this tab sent: a later save is still pending and its answer will count); the
 * user and the account are read again either way.
 */
export const usePutUserMutation = () => {
  const queryClient = useQueryClient();
  return useMutation({
    meta: OWN_FAILURE_REPORT,
    mutationFn: putUser,
    onSuccess: (answer, body) => {
      if (!isStaleUserAnswer(latestUserUpdateId(), answer.latestUserUpdateId)) {
        queryClient.setQueriesData<User>({ queryKey: ['user', body.email] }, (user) =>
          user ? { ...user, ...answer.props, latestUserUpdateId: answer.latestUserUpdateId } : user,
        );
      }
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: ['user', body.email] }),
        queryClient.invalidateQueries({ queryKey: ['account'] }),
      ]);
    },
  });
};
