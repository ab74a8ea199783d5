import type { Kysely, Transaction } from 'kysely';
import type { Database, WebhookDeliveriesTable, WebhooksTable } from '../../db/schema';

type Db = Kysely<Database> | Transaction<Database>;

export type WebhookRow = WebhooksTable;
export type DeliveryRow = WebhookDeliveriesTable;

export function findWebhook(db: Db, id: string): Promise<WebhookRow | undefined> {
  return db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirst();
}

export function webhooksOfAccounts(db: Db, accountIds: readonly string[]): Promise<WebhookRow[]> {
  if (accountIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('webhooks')
    .selectAll()
    .where('account_id', 'in', accountIds)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function countWebhooks(db: Db, accountId: string): Promise<number> {
  const row = await db
    .selectFrom('webhooks')
    .select((eb) => eb.fn.countAll<string | number>().as('count'))
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function insertWebhook(db: Db, row: WebhookRow): Promise<void> {
  await db.insertInto('webhooks').values(row).execute();
}

export async function updateWebhook(
  db: Db,
  id: string,
  changes: Partial<Pick<WebhookRow, 'url' | 'events' | 'format' | 'updated_at'>>,
): Promise<void> {
  await db.updateTable('webhooks').set(changes).where('id', '=', id).execute();
}

/** Removes a webhook and its deliveries; a queued attempt finds nothing and ends. */
export async function deleteWebhook(db: Db, id: string): Promise<void> {
  await db.deleteFrom('webhook_deliveries').where('webhook_id', '=', id).execute();
  await db.deleteFrom('webhooks').where('id', '=', id).execute();
}

export async function insertDelivery(db: Db, row: DeliveryRow): Promise<void> {
  await db.insertInto('webhook_deliveries').values(row).execute();
}

export function findDelivery(db: Db, id: string): Promise<DeliveryRow | undefined> {
  return db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function updateDelivery(
  db: Db,
  id: string,
  changes: Partial<Omit<DeliveryRow, 'id' | 'webhook_id' | 'event_id' | 'event' | 'at' | 'body'>>,
): Promise<void> {
  await db.updateTable('webhook_deliveries').set(changes).where('id', '=', id).execute();
}

export function newestDeliveries(db: Db, webhookId: string, limit: number): Promise<DeliveryRow[]> {
  return db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('webhook_id', '=', webhookId)
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** Drops a webhook's deliveries beyond the newest `kept` that are no longer waiting. */
export async function trimDeliveries(db: Db, webhookId: string, kept: number): Promise<void> {
  const oldest = await db
    .selectFrom('webhook_deliveries')
    .select('at')
    .where('webhook_id', '=', webhookId)
    .orderBy('at', 'desc')
    .limit(1)
    .offset(kept)
    .executeTakeFirst();
  if (!oldest) return;
  await db
    .deleteFrom('webhook_deliveries')
    .where('webhook_id', '=', webhookId)
    .where('at', '<=', oldest.at)
    .where('state', '!=', 'pending')
    .execute();
}
