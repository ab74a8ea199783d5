import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AccountSecondFactorAnswer, AccountSecondFactorBody } from '@fieldlink/api/mfa';
import { apiGet, apiRequest } from '../../../lib/api-client';

export const secondFactorQuery = (accountId: string) =>
  queryOptions({
    queryKey: ['account-second-factor', accountId] as const,
    queryFn: ({ signal }) => apiGet<AccountSecondFactorAnswer>('/account/second-factor', { accountId }, signal),
  });

/** Whether the account requires a second factor of its users and its customers' users (issue 38). */
export const useSecondFactorRequirement = (accountId: string) => useQuery(secondFactorQuery(accountId));

export const putSecondFactor = (body: AccountSecondFactorBody) =>
  apiRequest<AccountSecondFactorAnswer>('PUT', '/account/second-factor', { body });

/** Requires a second factor of the account's users, or stops; the answer replaces the cached setting. */
export const usePutSecondFactorMutation = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: putSecondFactor,
    onSuccess: (answer) => queryClient.setQueryData(secondFactorQuery(answer.accountId).queryKey, answer),
  });
};
