import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { EndOtherSessionsAnswer } from '@fieldlink/api/sessions';
import { apiRequest } from '../../../lib/api-client';
import { OWN_FAILURE_REPORT } from '../../../lib/query-client';
import { SESSIONS_KEY } from './get-sessions';

export const deleteOtherSessions = () => apiRequest<EndOtherSessionsAnswer>('DELETE', '/sessions/others');

/** Signs every session of the user out but this browser's. */
export const useSignOutOtherSessionsMutation = () => {
  const queryClient = useQueryClient();
  return useMutation({
    meta: OWN_FAILURE_REPORT,
    mutationFn: deleteOtherSessions,
    onSettled: () => queryClient.invalidateQueries({ queryKey: SESSIONS_KEY }),
  });
};
