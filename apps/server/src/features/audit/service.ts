import { createHash } from 'node:crypto';
import { accountRootPath } from '../../db/account-paths';
import type { Kysely, Transaction } from 'kysely';
import type {
  AuditChoicesAnswer,
  AuditEntry,
  AuditLogAnswer,
  AuditLogQuery,
  AuditVerifyAnswer,
  AuditAccountQuery,
} from '@fieldlink/api/audit';
import {
  AUDIT_GENESIS_HASH,
  SYSTEM_AUDIT_CHAIN,
  auditHashInput,
  auditQueryProblem,
  auditRetentionCutoff,
  canonicalJson,
  type AuditAction,
  type AuditActor,
  type AuditEntryFacts,
  type AuditTarget,
} from '@fieldlink/domain/audit';
import type { Database } from '../../db/schema';
import { HttpError, notFound } from '../../http-errors';
import type { JobQueue } from '../../jobs/job-queue';
import { newId } from '../../security/secrets';
import { inScope, requireCapability } from '../session/access';
import type { UserContext } from '../session/user-context';
import {
  actorsOf,
  appendEntry,
  chainAccounts,
  devicesOf,
  entriesInChainOrder,
  entriesNewestFirst,
  findChainHead,
  lockChainHead,
  newestEntryBefore,
  trimChain,
  type AuditRow,
} from './repository';

/** Who made a change and from where. */
export interface AuditOrigin {
  actor: AuditActor;
  address: string | null;
  client: string | null;
}

/** A change to record: `accountId` null puts it in the system chain (no account concerned). */
export interface AuditRecord {
  accountId: string | null;
  by: AuditOrigin;
  action: AuditAction;
  target?: AuditTarget | null;
  deviceId?: string | null;
  before?: unknown;
  after?: unknown;
  /** When; now unless given (a service with a clock of its own passes it). */
  at?: number;
}

/**
 * The signed-in caller as the trail names them, with the address and client of their request or
 * socket: the user, or the API token they used (its id, its name and its owner's e-mail).
 */
export function byUser(user: UserContext): AuditOrigin {
  return {
    actor: user.apiToken
      ? { kind: 'token', id: user.apiToken.id, name: `${user.apiToken.name} (${user.email})` }
      : { kind: 'user', id: user.id, name: user.email },
    address: user.origin?.address ?? null,
    client: user.origin?.client ?? null,
  };
}

/** The system's own job `job` (retention, a schedule) as the trail names it. */
export function bySystem(job: string): AuditOrigin {
  return { actor: { kind: 'system', id: job, name: job }, address: null, client: null };
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** A stored value as JSON text, or null where there is none. */
function storedJson(value: unknown): string | null {
  return value === undefined || value === null ? null : canonicalJson(value);
}

/** What a row's hash was taken of. */
function factsOf(row: AuditRow): AuditEntryFacts {
  return {
    accountId: row.account_id,
    seq: row.seq,
    at: row.at,
    actor: { kind: row.actor_kind as AuditActor['kind'], id: row.actor_id, name: row.actor_name },
    address: row.address,
    client: row.client,
    action: row.action as AuditAction,
    target: row.target_kind === null ? null : targetOf(row),
    deviceId: row.device_id,
    before: row.before === null ? null : (JSON.parse(row.before) as unknown),
    after: row.after === null ? null : (JSON.parse(row.after) as unknown),
  };
}

function targetOf(row: AuditRow): AuditTarget {
  return {
    kind: row.target_kind ?? '',
    id: row.target_id ?? '',
    ...(row.target_name === null ? {} : { name: row.target_name }),
  };
}

function toAuditEntry(row: AuditRow): AuditEntry {
  const facts = factsOf(row);
  return { id: row.id, ...facts, prevHash: row.prev_hash, hash: row.hash };
}

/**
 * Records a change in the transaction that makes it (`audit.record`), so the entry exists exactly
 * when the change does. The account's chain head is locked first: entries of one account are
 * appended one after the other, each carrying its predecessor's hash.
 */
async function record(trx: Transaction<Database>, entry: AuditRecord): Promise<void> {
  const accountId = entry.accountId ?? SYSTEM_AUDIT_CHAIN;
  const head = await lockChainHead(trx, accountId, AUDIT_GENESIS_HASH);
  const facts: AuditEntryFacts = {
    accountId,
    seq: head.seq + 1,
    at: entry.at ?? Date.now(),
    actor: entry.by.actor,
    address: entry.by.address,
    client: entry.by.client,
    action: entry.action,
    target: entry.target ?? null,
    deviceId: entry.deviceId ?? null,
    before: entry.before ?? null,
    after: entry.after ?? null,
  };
  const hash = sha256(auditHashInput(head.hash, facts));
  await appendEntry(trx, {
    id: newId(),
    account_id: accountId,
    seq: facts.seq,
    at: facts.at,
    actor_kind: facts.actor.kind,
    actor_id: facts.actor.id,
    actor_name: facts.actor.name,
    address: facts.address,
    client: facts.client,
    action: facts.action,
    target_kind: facts.target?.kind ?? null,
    target_id: facts.target?.id ?? null,
    target_name: facts.target?.name ?? null,
    device_id: facts.deviceId,
    before: storedJson(facts.before),
    after: storedJson(facts.after),
    prev_hash: head.hash,
    hash,
  });
}

/** Records a user's change to a device or to what it carries (a batch, a tank), in the change's transaction. */
function recordDeviceChange(
  trx: Transaction<Database>,
  user: UserContext,
  device: { id: string; account_id: string },
  action: AuditAction,
  target: AuditTarget,
  before: unknown,
  after: unknown,
): Promise<void> {
  return record(trx, {
    accountId: device.account_id,
    by: byUser(user),
    action,
    target,
    deviceId: device.id,
    before,
    after,
  });
}

/** The one way a change is recorded (issue 38 item 1). */
export const audit = {
  record,
  deviceChange: recordDeviceChange,
  /**
   * Records a change that has no transaction of its own: a device command, recorded as it is sent,
   * and a sign-in refused.
   */
  recordAlone: (db: Kysely<Database>, entry: AuditRecord): Promise<void> =>
    db.transaction().execute((trx) => record(trx, entry)),
};

/** Entries verified per read. */
const VERIFY_PAGE = 1000;
/** The retention job's name in the jobs table; its entry in the trail names it as the actor. */
const AUDIT_RETENTION_JOB = 'auditRetention';

interface AuditServiceOptions {
  db: Kysely<Database>;
  jobs: JobQueue;
  /** Entries older than this many days are removed by the retention job; 0 keeps them all. */
  retentionDays: number;
  now?: () => number;
}

/** Reading, verifying and trimming the trail. */
export class AuditService {
  private readonly now: () => number;
  private stopQueueing: () => void = () => undefined;

  constructor(private readonly options: AuditServiceOptions) {
    this.now = options.now ?? Date.now;
    options.jobs.register(AUDIT_RETENTION_JOB, () => this.applyRetention().then(() => undefined), {
      maxAttempts: 3,
    });
  }

  /** The account when the caller may read its trail: administrators whose scope holds the whole account. */
  private async readableAccount(caller: UserContext, accountId: string): Promise<string> {
    requireCapability(caller, 'readAuditLog');
    const path = await accountRootPath(this.options.db, accountId);
    if (path === undefined || !inScope(caller, path)) throw notFound('Account not found.');
    return accountId;
  }

  /** `GET /audit-log`: an account's entries, newest first, a page at a time. */
  async list(caller: UserContext, query: AuditLogQuery): Promise<AuditLogAnswer> {
    const problem = auditQueryProblem(query);
    if (problem) throw new HttpError(400, problem);
    const accountId = await this.readableAccount(caller, query.accountId);
    const rows = await entriesNewestFirst(
      this.options.db,
      {
        accountId,
        beforeSeq: query.cursor === undefined ? undefined : Number(query.cursor),
        actorId: query.userId,
        deviceId: query.deviceId,
        action: query.action,
        from: query.from,
        to: query.to,
      },
      query.limit + 1,
    );
    const page = rows.slice(0, query.limit);
    return {
      entries: page.map(toAuditEntry),
      nextCursor: rows.length > query.limit ? String(page[page.length - 1]!.seq) : null,
    };
  }

  /** `GET /audit-log/choices`: every actor and device the account's trail names, for the filters. */
  async choices(caller: UserContext, query: AuditAccountQuery): Promise<AuditChoicesAnswer> {
    const accountId = await this.readableAccount(caller, query.accountId);
    const [actors, devices] = await Promise.all([
      actorsOf(this.options.db, accountId),
      devicesOf(this.options.db, accountId),
    ]);
    return { actors: actors.map((actor) => ({ ...actor, kind: actor.kind as AuditActor['kind'] })), devices };
  }

  /** `GET /audit-log/verify`: walks the account's chain from its start and says where it breaks. */
  async verify(caller: UserContext, query: AuditAccountQuery): Promise<AuditVerifyAnswer> {
    return verifyChain(this.options.db, await this.readableAccount(caller, query.accountId));
  }

  /** Queues the retention job every `everyMinutes` while the trail has a retention (jobs' `enqueueEvery`). */
  startRetention(everyMinutes: number): void {
    if (this.options.retentionDays > 0)
      this.stopQueueing = this.options.jobs.enqueueEvery(AUDIT_RETENTION_JOB, everyMinutes);
  }

  stopRetention(): void {
    this.stopQueueing();
  }

  /**
   * Removes every chain's entries older than the retention. The chain's new start (the first kept
   * `seq` and the hash it follows) is stored with its head, so verify checks it from there, and the
   * trimming is itself an entry of the chain. Answers how many entries went.
   */
  async applyRetention(): Promise<number> {
    const cutoff = auditRetentionCutoff(this.now(), this.options.retentionDays);
    if (cutoff === null) return 0;
    let removed = 0;
    for (const accountId of await chainAccounts(this.options.db)) {
      removed += await this.options.db.transaction().execute(async (trx) => {
        const head = await lockChainHead(trx, accountId, AUDIT_GENESIS_HASH);
        const last = await newestEntryBefore(trx, accountId, cutoff);
        if (!last) return 0;
        const count = await trimChain(trx, accountId, last.seq, last.hash);
        await record(trx, {
          accountId: accountId === SYSTEM_AUDIT_CHAIN ? null : accountId,
          by: bySystem(AUDIT_RETENTION_JOB),
          action: 'audit.trim',
          before: { startSeq: head.start_seq },
          after: { startSeq: last.seq + 1, startPrevHash: last.hash, removed: count, olderThan: cutoff },
          at: this.now(),
        });
        return count;
      });
    }
    return removed;
  }
}

/**
 * Walks a chain from its start: every `seq` in turn, each entry following the hash before it and
 * hashing to what it stores, the last one being the head. The first entry that does not fit is named.
 */
async function verifyChain(db: Kysely<Database>, accountId: string): Promise<AuditVerifyAnswer> {
  const head = await findChainHead(db, accountId);
  const startSeq = head?.start_seq ?? 1;
  let expectedSeq = startSeq;
  let prevHash = head?.start_prev_hash ?? AUDIT_GENESIS_HASH;
  let checked = 0;
  const answer = (brokenAt: AuditVerifyAnswer['brokenAt']): AuditVerifyAnswer => ({
    accountId,
    intact: brokenAt === null,
    checked,
    firstSeq: checked > 0 || (head && head.seq >= startSeq) ? startSeq : null,
    lastSeq: head && head.seq >= startSeq ? head.seq : null,
    brokenAt,
  });
  for (;;) {
    const rows = await entriesInChainOrder(db, accountId, expectedSeq, VERIFY_PAGE);
    for (const row of rows) {
      if (row.seq !== expectedSeq) {
        return answer({ seq: expectedSeq, id: null, reason: `Entry ${expectedSeq} is missing.` });
      }
      if (row.prev_hash !== prevHash) {
        return answer({ seq: row.seq, id: row.id, reason: 'The entry does not follow the one before it.' });
      }
      if (sha256(auditHashInput(prevHash, factsOf(row))) !== row.hash) {
        return answer({ seq: row.seq, id: row.id, reason: 'The entry was changed after it was written.' });
      }
      prevHash = row.hash;
      expectedSeq += 1;
      checked += 1;
    }
    if (rows.length < VERIFY_PAGE) break;
  }
  const headSeq = head?.seq ?? 0;
  if (expectedSeq - 1 < headSeq) {
    return answer({ seq: expectedSeq, id: null, reason: `Entries ${expectedSeq} to ${headSeq} are missing.` });
  }
  if (expectedSeq - 1 > headSeq || (head && checked > 0 && head.hash !== prevHash)) {
    return answer({ seq: expectedSeq - 1, id: null, reason: 'The chain does not end at its recorded head.' });
  }
  return answer(null);
}
