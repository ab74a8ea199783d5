import { queryOptions, useQuery } from '@tanstack/react-query';
import type { User } from '@fieldlink/api/users';
import { apiGet } from '../../../lib/api-client';

export const getUser = (email: string, signal?: AbortSignal) => apiGet<User>('/user', { email }, signal);

export const userQuery = (email: string) =>
  queryOptions({ queryKey: ['user', email], queryFn: ({ signal }) => getUser(email, signal), staleTime: 30_000 });

export const useUser = (email: string | null) => useQuery({ ...userQuery(email ?? ''), enabled: email !== null });
