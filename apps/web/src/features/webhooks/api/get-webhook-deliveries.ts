import { queryOptions, useQuery } from '@tanstack/react-query';
import type { WebhookDeliveriesAnswer } from '@fieldlink/api/webhooks';
import { apiGet } from '../../../lib/api-client';
import { WEBHOOKS_KEY } from './get-webhooks';

/** While shown, deliveries are read again this often: a retry's outcome appears without a reload. */
const DELIVERIES_REFRESH_MS = 15_000;

export const getWebhookDeliveries = (id: string, signal?: AbortSignal) =>
  apiGet<WebhookDeliveriesAnswer>('/webhooks/deliveries', { id }, signal);

export const webhookDeliveriesQuery = (id: string) =>
  queryOptions({
    queryKey: [...WEBHOOKS_KEY, 'deliveries', id],
    queryFn: ({ signal }) => getWebhookDeliveries(id, signal),
  });

/** A webhook's newest deliveries, newest first. */
export const useWebhookDeliveries = (id: string) =>
  useQuery({ ...webhookDeliveriesQuery(id), refetchInterval: DELIVERIES_REFRESH_MS });
