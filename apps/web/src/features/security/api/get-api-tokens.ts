import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ApiTokenListAnswer } from '@fieldlink/api/api-tokens';
import { apiGet } from '../../../lib/api-client';

export const API_TOKENS_KEY = ['user-api-tokens'] as const;

export const getApiTokens = (signal?: AbortSignal) => apiGet<ApiTokenListAnswer>('/api-tokens', undefined, signal);

const apiTokensQuery = queryOptions({ queryKey: API_TOKENS_KEY, queryFn: ({ signal }) => getApiTokens(signal) });

/** The signed-in user's personal API tokens with their last use (never their secrets). */
export const useApiTokens = (enabled: boolean) => useQuery({ ...apiTokensQuery, enabled });
