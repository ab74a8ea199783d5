import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PasskeyListAnswer } from '@fieldlink/api/passkeys';
import { apiGet } from '../../../lib/api-client';

export const PASSKEYS_KEY = ['user-passkeys'] as const;

export const getPasskeys = (signal?: AbortSignal) => apiGet<PasskeyListAnswer>('/user/passkeys', undefined, signal);

const passkeysQuery = queryOptions({ queryKey: PASSKEYS_KEY, queryFn: ({ signal }) => getPasskeys(signal) });

/** The signed-in user's passkeys, the newest first. */
export const usePasskeys = (enabled: boolean) => useQuery({ ...passkeysQuery, enabled });
