import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PhoneAnswer } from '@fieldlink/api/phone';
import { apiGet } from '../../../lib/api-client';

export const PHONE_KEY = ['user-phone'] as const;

export const getPhone = (signal?: AbortSignal) => apiGet<PhoneAnswer>('/user/phone', undefined, signal);

export const phoneQuery = queryOptions({ queryKey: PHONE_KEY, queryFn: ({ signal }) => getPhone(signal) });

/** The signed-in user's phone for SMS alerts (ask only where the server offers SMS). */
export const usePhone = () => useQuery(phoneQuery);
