import { queryOptions, useQuery } from '@tanstack/react-query';
import { SELF_PATH } from '@fieldlink/api/first-calls';
import type { SelfAnswer } from '@fieldlink/api/session';
import { apiGet } from '../api-client';

// Shared by the loading screen, the shell's user menu and the dashboards, so it lives in lib/ rather
// than in one feature (features do not import each other).

export const getSelf = (signal?: AbortSignal) => apiGet<SelfAnswer>(SELF_PATH, undefined, signal);

export const selfQuery = () =>
  queryOptions({ queryKey: ['self'], queryFn: ({ signal }) => getSelf(signal), staleTime: Infinity });

export const useSelf = () => useQuery(selfQuery());
