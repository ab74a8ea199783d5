import { queryOptions, useQuery } from '@tanstack/react-query';
import type { MfaStatusAnswer } from '@fieldlink/api/mfa';
import { apiGet } from '../../../lib/api-client';

export const MFA_KEY = ['user-mfa'] as const;

export const getMfa = (signal?: AbortSignal) => apiGet<MfaStatusAnswer>('/user/mfa', undefined, signal);

const mfaQuery = queryOptions({ queryKey: MFA_KEY, queryFn: ({ signal }) => getMfa(signal) });

/** The signed-in user's second factor. */
export const useMfa = () => useQuery(mfaQuery);
