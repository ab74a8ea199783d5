import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SessionListAnswer } from '@fieldlink/api/sessions';
import { apiGet } from '../../../lib/api-client';

export const SESSIONS_KEY = ['user-sessions'] as const;

export const getSessions = (signal?: AbortSignal) => apiGet<SessionListAnswer>('/sessions', undefined, signal);

const sessionsQuery = queryOptions({ queryKey: SESSIONS_KEY, queryFn: ({ signal }) => getSessions(signal) });

/** The signed-in user's open sessions, this browser's marked `current`. */
export const useSessions = (enabled: boolean) => useQuery({ ...sessionsQuery, enabled });
