import { queryOptions, useQuery } from '@tanstack/react-query';
import type { User } from '@fieldlink/api/users';
import { apiGet } from '../../../lib/api-client';

/** `GET /user` with the e-mail and the account whose tree shows the user (core §7). */
export const getUser = (email: string, accountId: string, signal?: AbortSignal) =>
  apiGet<User>('/user', { email, accountId }, signal);

export const userQueryKey = (email: string, accountId: string) => ['user', email, accountId] as const;

export const userQuery = (email: string, accountId: string) =>
  queryOptions({
    queryKey: userQueryKey(email, accountId),
    queryFn: ({ signal }) => getUser(email, accountId, signal),
    staleTime: 30_000,
  });

export const useUser = (email: string | null, accountId: string) =>
  useQuery({ ...userQuery(email ?? '', accountId), enabled: email !== null });
