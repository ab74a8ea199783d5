import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateWebhookBody, CreatedWebhook } from '@fieldlink/api/webhooks';
import { apiPost } from '../../../lib/api-client';
import { OWN_FAILURE_REPORT } from '../../../lib/query-client';
import { WEBHOOKS_KEY } from './get-webhooks';

export const createWebhook = (body: CreateWebhookBody) => apiPost<CreatedWebhook>('/webhooks', body);

/** Adds a webhook; the answer holds its signing secret, this once. */
export const useCreateWebhookMutation = () => {
  const queryClient = useQueryClient();
  return useMutation({
    meta: OWN_FAILURE_REPORT,
    mutationFn: createWebhook,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: WEBHOOKS_KEY }),
  });
};
