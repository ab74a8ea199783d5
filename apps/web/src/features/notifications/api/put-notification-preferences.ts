import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { NotificationPreferencesAnswer, NotificationPreferencesBody } from '@fieldlink/api/notifications';
import { apiRequest } from '../../../lib/api-client';
import { OWN_FAILURE_REPORT } from '../../../lib/query-client';
import { NOTIFICATION_PREFERENCES_KEY } from './get-notification-preferences';

export const putNotificationPreferences = (body: NotificationPreferencesBody) =>
  apiRequest<NotificationPreferencesAnswer>('PUT', '/user/notification-preferences', { body });

/** Replaces the signed-in user's notification preferences. */
export const usePutNotificationPreferencesMutation = () => {
  const queryClient = useQueryClient();
  return useMutation({
    meta: OWN_FAILURE_REPORT,
    mutationFn: putNotificationPreferences,
    onSuccess: (answer) => queryClient.setQueryData(NOTIFICATION_PREFERENCES_KEY, answer),
  });
};
