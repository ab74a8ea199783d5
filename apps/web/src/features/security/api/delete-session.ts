import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { OkAnswer } from '@fieldlink/api/errors';
import { apiRequest } from '../../../lib/api-client';
import { OWN_FAILURE_REPORT } from '../../../lib/query-client';
import { SESSIONS_KEY } from './get-sessions';

export const deleteSession = (id: string) => apiRequest<OkAnswer>('DELETE', '/sessions', { query: { id } });

/** Signs one of the user's other sessions out. */
export const useSignOutSessionMutation = () => {
  const queryClient = useQueryClient();
  return useMutation({
    meta: OWN_FAILURE_REPORT,
    mutationFn: deleteSession,
    onSettled: () => queryClient.invalidateQueries({ queryKey: SESSIONS_KEY }),
  });
};
