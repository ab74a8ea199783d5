import { queryOptions, useQuery } from '@tanstack/react-query';
import type { WebhookListAnswer } from '@fieldlink/api/webhooks';
import { apiGet } from '../../../lib/api-client';

/** Every webhook query starts with this key: a change invalidates them all. */
export const WEBHOOKS_KEY = ['webhooks'] as const;

export const getWebhooks = (accountId: string, signal?: AbortSignal) =>
  apiGet<WebhookListAnswer>('/webhooks', { accountId }, signal);

export const webhooksQuery = (accountId: string) =>
  queryOptions({ queryKey: [...WEBHOOKS_KEY, accountId], queryFn: ({ signal }) => getWebhooks(accountId, signal) });

/** An account's webhooks, without their secrets. */
export const useWebhooks = (accountId: string | null) =>
  useQuery({ ...webhooksQuery(accountId ?? ''), enabled: accountId !== null });
