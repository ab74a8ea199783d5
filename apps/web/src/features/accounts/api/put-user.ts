import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PutUserAnswer, PutUserBody, User } from '@fieldlink/api/users';
import { isStaleUserAnswer } from '@fieldlink/domain/user-rules';
import { apiRequest } from '../../../lib/api-client';
import { latestUserUpdateId, nextUserUpdateId } from '../../../lib/user-update-id';
import { OWN_FAILURE_REPORT } from '../../../lib/query-client';

/** The last `PUT /user` this tab sent, answered or not: the next one waits for it. */
let lastSent: Promise<unknown> = Promise.resolve();

/**
 * `PUT /user` with the next update id of this tab, so a stale answer can be told apart (§4). This tab's
 * calls go one at a time, in the order they were made: the server ignores an update whose id is older
 * than the user's latest (`isStaleUserUpdate`), so a call overtaken on the way was dropped, answered
 * `applied: false`, even when it changed another field (the clock menu's time zone, sent a moment
 * before its hours and dates, stayed unsaved; e2e one-clock at load 8).
 */
export const putUser = (body: Omit<PutUserBody, 'updateId'>): Promise<PutUserAnswer> => {
  const updateId = nextUserUpdateId();
  const sent = lastSent.then(() => apiRequest<PutUserAnswer>('PUT', '/user', { body: { ...body, updateId } }));
  lastSent = sent.catch(() => undefined);
  return sent;
};

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
