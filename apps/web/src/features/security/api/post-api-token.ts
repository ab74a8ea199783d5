import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiTokenCreateAnswer, ApiTokenCreateBody } from '@fieldlink/api/api-tokens';
import { apiPost } from '../../../lib/api-client';
import { OWN_FAILURE_REPORT } from '../../../lib/query-client';
import { API_TOKENS_KEY } from './get-api-tokens';

export const postApiToken = (body: ApiTokenCreateBody) => apiPost<ApiTokenCreateAnswer>('/api-tokens', body);

/** Makes a personal API token: the answer holds its secret, this once. */
export const useCreateApiTokenMutation = () => {
  const queryClient = useQueryClient();
  return useMutation({
    meta: OWN_FAILURE_REPORT,
    mutationFn: postApiToken,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: API_TOKENS_KEY }),
  });
};
