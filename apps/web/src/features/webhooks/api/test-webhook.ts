import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { WebhookDelivery } from '@fieldlink/api/webhooks';
import { apiRequest } from '../../../lib/api-client';
import { OWN_FAILURE_REPORT } from '../../../lib/query-client';
import { webhookDeliveriesQuery } from './get-webhook-deliveries';

export const testWebhook = (id: string) => apiRequest<WebhookDelivery>('POST', '/webhooks/test', { query: { id } });

/** Sends a test event now; answers how the receiver took it, which the deliveries list then shows. */
export const useTestWebhookMutation = () => {
  const queryClient = useQueryClient();
  return useMutation({
    meta: OWN_FAILURE_REPORT,
    mutationFn: testWebhook,
    onSuccess: (_delivery, id) => queryClient.invalidateQueries({ queryKey: webhookDeliveriesQuery(id).queryKey }),
  });
};
