import { queryOptions, useQuery } from '@tanstack/react-query';
import type { NotificationPreferencesAnswer } from '@fieldlink/api/notifications';
import { apiGet } from '../../../lib/api-client';

export const NOTIFICATION_PREFERENCES_KEY = ['notification-preferences'] as const;

export const getNotificationPreferences = (signal?: AbortSignal) =>
  apiGet<NotificationPreferencesAnswer>('/user/notification-preferences', undefined, signal);

const preferencesQuery = queryOptions({
  queryKey: NOTIFICATION_PREFERENCES_KEY,
  queryFn: ({ signal }) => getNotificationPreferences(signal),
});

/** The signed-in user's notification preferences and which channels can reach them. */
export const useNotificationPreferences = () => useQuery(preferencesQuery);
