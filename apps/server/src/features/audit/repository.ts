import { PostgresAdapter, type Insertable, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { AuditChainHeadsTable, AuditLogTable, Database } from '../../db/schema';

export type AuditRow = Selectable<AuditLogTable>;
type ChainHeadRow = Selectable<AuditChainHeadsTable>;

/**
 * The head of an account's chain, locked until the transaction ends: on PostgreSQL with
 * `FOR UPDATE` on its row (made first if missing), so two writers of one account take turns and
 * cannot both append after the same entry; SQLite has one writer at a time already.
 */
export async function lockChainHead(
  trx: Transaction<Database>,
  accountId: string,
  genesis: string,
): Promise<ChainHeadRow> {
  await trx
    .insertInto('audit_chain_heads')
    .values({ account_id: accountId, seq: 0, hash: genesis, start_seq: 1, start_prev_hash: genesis })
    .onConflict((conflict) => conflict.column('account_id').doNothing())
    .execute();
  const query = trx.selectFrom('audit_chain_heads').selectAll().where('account_id', '=', accountId);
  const postgres = trx.getExecutor().adapter instanceof PostgresAdapter;
  return (postgres ? query.forUpdate() : query).executeTakeFirstOrThrow();
}

/** Appends an entry and moves the chain's head to it. */
export async function appendEntry(trx: Transaction<Database>, row: Insertable<AuditLogTable>): Promise<void> {
  await trx.insertInto('audit_log').values(row).execute();
  await trx
    .updateTable('audit_chain_heads')
    .set({ seq: row.seq, hash: row.hash })
    .where('account_id', '=', row.account_id)
    .execute();
}

interface EntryFilters {
  accountId: string;
  /** Entries older than this `seq` (the cursor). */
  beforeSeq?: number;
  actorId?: string;
  deviceId?: string;
  action?: string;
  from?: number;
  to?: number;
}

/** An account's entries, newest first. */
export function entriesNewestFirst(db: Kysely<Database>, filters: EntryFilters, limit: number): Promise<AuditRow[]> {
  let query = db.selectFrom('audit_log').selectAll().where('account_id', '=', filters.accountId);
  if (filters.beforeSeq !== undefined) query = query.where('seq', '<', filters.beforeSeq);
  if (filters.actorId !== undefined) query = query.where('actor_id', '=', filters.actorId);
  if (filters.deviceId !== undefined) query = query.where('device_id', '=', filters.deviceId);
  if (filters.action !== undefined) query = query.where('action', '=', filters.action);
  if (filters.from !== undefined) query = query.where('at', '>=', filters.from);
  if (filters.to !== undefined) query = query.where('at', '<=', filters.to);
  return query.orderBy('seq', 'desc').limit(limit).execute();
}

/**
 * Each actor of an account's trail once, with the name of its newest entry (a user's e-mail may
 * have changed), by name.
 */
export async function actorsOf(
  db: Kysely<Database>,
  accountId: string,
): Promise<{ kind: string; id: string; name: string }[]> {
  const rows = await db
    .selectFrom('audit_log')
    .select(['actor_kind', 'actor_id', 'actor_name'])
    .select((eb) => eb.fn.max('seq').as('last'))
    .where('account_id', '=', accountId)
    .groupBy(['actor_kind', 'actor_id', 'actor_name'])
    .execute();
  return newestNames(
    rows.map((row) => ({ kind: row.actor_kind, id: row.actor_id, name: row.actor_name, last: Number(row.last) })),
  );
}

/** Each device an account's trail names once, with the name of its newest entry, by name. */
export async function devicesOf(db: Kysely<Database>, accountId: string): Promise<{ id: string; name: string }[]> {
  const rows = await db
    .selectFrom('audit_log')
    .select(['device_id', 'target_kind', 'target_name'])
    .select((eb) => eb.fn.max('seq').as('last'))
    .where('account_id', '=', accountId)
    .where('device_id', 'is not', null)
    .groupBy(['device_id', 'target_kind', 'target_name'])
    .execute();
  // An entry on something else that concerns the device (a move of its group) does not name it:
  // the device is named by its newest entry on itself, else by its id.
  const named = rows.filter((row) => row.target_kind === 'device' && row.target_name);
  const names = new Map(
    newestNames(named.map((row) => ({ id: row.device_id!, name: row.target_name!, last: Number(row.last) }))).map(
      (device) => [device.id, device.name],
    ),
  );
  const ids = new Set(rows.map((row) => row.device_id!));
  return [...ids].map((id) => ({ id, name: names.get(id) ?? id })).sort((a, b) => a.name.localeCompare(b.name));
}

/** One of each id (and kind), named as in its newest entry, sorted by name. */
function newestNames<T extends { id: string; kind?: string; name: string; last: number }>(
  rows: T[],
): Omit<T, 'last'>[] {
  const newest = new Map<string, T>();
  for (const row of rows) {
    const key = `${row.kind ?? ''}:${row.id}`;
    const known = newest.get(key);
    if (!known || row.last > known.last) newest.set(key, row);
  }
  return [...newest.values()].map(({ last: _last, ...rest }) => rest).sort((a, b) => a.name.localeCompare(b.name));
}

/** A page of an account's entries in chain order, from `fromSeq` on. */
export function entriesInChainOrder(
  db: Kysely<Database>,
  accountId: string,
  fromSeq: number,
  limit: number,
): Promise<AuditRow[]> {
  return db
    .selectFrom('audit_log')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('seq', '>=', fromSeq)
    .orderBy('seq', 'asc')
    .limit(limit)
    .execute();
}

export function findChainHead(db: Kysely<Database>, accountId: string): Promise<ChainHeadRow | undefined> {
  return db.selectFrom('audit_chain_heads').selectAll().where('account_id', '=', accountId).executeTakeFirst();
}

export async function chainAccounts(db: Kysely<Database>): Promise<string[]> {
  const rows = await db.selectFrom('audit_chain_heads').select('account_id').execute();
  return rows.map((row) => row.account_id);
}

/** The newest entry of the account older than `before`, or undefined. */
export function newestEntryBefore(
  trx: Transaction<Database>,
  accountId: string,
  before: number,
): Promise<Pick<AuditRow, 'seq' | 'hash'> | undefined> {
  return trx
    .selectFrom('audit_log')
    .select(['seq', 'hash'])
    .where('account_id', '=', accountId)
    .where('at', '<', before)
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** Removes the chain's entries up to `lastSeq` and records where it now starts. */
export async function trimChain(
  trx: Transaction<Database>,
  accountId: string,
  lastSeq: number,
  lastHash: string,
): Promise<number> {
  const deleted = await trx
    .deleteFrom('audit_log')
    .where('account_id', '=', accountId)
    .where('seq', '<=', lastSeq)
    .executeTakeFirst();
  await trx
    .updateTable('audit_chain_heads')
    .set({ start_seq: lastSeq + 1, start_prev_hash: lastHash })
    .where('account_id', '=', accountId)
    .execute();
  return Number(deleted.numDeletedRows);
}
