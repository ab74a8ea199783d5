import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UpdateWebhookBody, Webhook } from '@fieldlink/api/webhooks';
import { apiRequest } from '../../../lib/api-client';
import { OWN_FAILURE_REPORT } from '../../../lib/query-client';
import { WEBHOOKS_KEY } from './get-webhooks';

export const updateWebhook = ({ id, body }: { id: string; body: UpdateWebhookBody }) =>
  apiRequest<Webhook>('PUT', '/webhooks', { query: { id }, body });

/** Changes a webhook's URL, events or format (its secret stays). */
export const useUpdateWebhookMutation = () => {
  const queryClient = useQueryClient();
  return useMutation({
    meta: OWN_FAILURE_REPORT,
    mutationFn: updateWebhook,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: WEBHOOKS_KEY }),
  });
};
