import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { OWN_FAILURE_REPORT } from '../../../lib/query-client';
import { WEBHOOKS_KEY } from './get-webhooks';

export const deleteWebhook = (id: string) => apiRequest<object>('DELETE', '/webhooks', { query: { id } });

/** Removes a webhook and its deliveries. */
export const useDeleteWebhookMutation = () => {
  const queryClient = useQueryClient();
  return useMutation({
    meta: OWN_FAILURE_REPORT,
    mutationFn: deleteWebhook,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: WEBHOOKS_KEY }),
  });
};
