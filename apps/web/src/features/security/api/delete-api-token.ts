import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { OkAnswer } from '@fieldlink/api/errors';
import { apiRequest } from '../../../lib/api-client';
import { OWN_FAILURE_REPORT } from '../../../lib/query-client';
import { API_TOKENS_KEY } from './get-api-tokens';

export const deleteApiToken = (id: string) => apiRequest<OkAnswer>('DELETE', '/api-tokens', { query: { id } });

/** Revokes one of the user's API tokens: it stops working at once. */
export const useRevokeApiTokenMutation = () => {
  const queryClient = useQueryClient();
  return useMutation({
    meta: OWN_FAILURE_REPORT,
    mutationFn: deleteApiToken,
    onSettled: () => queryClient.invalidateQueries({ queryKey: API_TOKENS_KEY }),
  });
};
