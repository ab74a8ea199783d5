import { CompiledQuery, type Kysely, type Transaction } from 'kysely';
import { isSqlite } from './dialect';
import { insertLogs, sqliteValues } from './log-writes';
import { moveRollupInbox } from './log-rollup-inbox';
import type { Database, LatestValuesTable, LogInboxRunsTable, LogsTable } from './schema';
import { REAL_TIMERS, type Timer, type Timers } from '../timers';

/**
 * The recent-samples inbox of SQLite (docs/decisions.md, "The recent-samples inbox"). `logs` is
 * clustered on (device, channel, time), so a batch holding one sample per channel wrote a 4 KiB page
 * of `logs` per sample, and one of each roll-up per device: about 4 KiB of WAL a sample, copied again
 * by checkpoints. The frame writer therefore commits its samples into `log_inbox_runs`, a rowid table
 * appended to (a batch writes a few pages), and PUBACK still waits for that commit. A mover in the
 * writer's thread ({@link InboxMover}) then moves them, one shard of devices at a time, into `logs`
 * and the roll-ups through {@link insertLogs} (duplicates skipped, the first stored kept), and empties
 * the shard, in one transaction: a sample is always either in the inbox or in `logs` with its
 * roll-ups, never both, never neither. Readers of samples, roll-ups and latest values first move the
 * shards of the devices they read ({@link moveInbox}), so they read `logs` exactly as if the frames
 * had gone there (a batch's latest values, too, are stored by the move: {@link appendToInbox}).
 *
 * Shards: a device's samples go to shard `inboxShard(device)`, whose row ids are `shard * 2^40 + n`
 * (n counting from 1 in the order of arrival), so a shard is one range of the row id: moved, counted
 * and emptied by range, and appended at its end. A batch writes one row per shard it has samples
 * for, its samples in the row's `body` as JSON (docs/decisions.md, "Issue 41 item 3: the inbox as a
 * row per shard and batch"): a row per sample cost the writer thread two fifths of its time binding,
 * inserting and deleting them. PostgreSQL has no inbox: it writes `logs` directly.
 */

/**
 * Shards of the inbox: a shard is moved at a time, so each move is a small share of the inbox. A batch
 * appends a row at the end of each shard's range, a leaf page of its own, so every commit wrote about
 * two pages of the inbox per shard: at 64 shards, 130 pages (520 KiB of WAL) for the 32 KiB of JSON a
 * batch of 1,700 samples holds. At 16 the WAL written per sample and the writer thread's CPU fell by a
 * fifth (docs/decisions.md, "Issue 41 items 1 and 3: the inbox's 16 shards").
 */
export const INBOX_SHARDS = 16;
/**
 * Shards of the releases before (64). A device of their shard `s` is in shard `s % 16` now (both are
 * FNV-1a modulo the count, and 16 divides 64), so rows such a release left in the range of `s` (after
 * a crash; a clean stop leaves none) belong to shard `s % 16`, whose moves take them first.
 */
const EARLIER_SHARDS = 64;
/** Row ids of one shard: `[shard * INBOX_SHARD_SPAN, (shard + 1) * INBOX_SHARD_SPAN)`. */
export const INBOX_SHARD_SPAN = 2 ** 40;
/** Each shard is moved about this often while it receives samples, in ms. */
export const INBOX_CYCLE_MS = 2000;
/**
 * About the most samples one move takes: a larger shard is moved in several, oldest rows first. At
 * 2,000 (64 shards), a shard's cycle at 75,000-130,000 dp/s (2,300-4,000 samples) went in two moves,
 * the second a small one writing the same pages of `logs` and the roll-ups again; at 6,000 it went in
 * one, and the writer thread spent 0.6-0.9 µs less per data point (docs/decisions.md, issue 41 item
 * 3). With a quarter of the shards, four times as many: a shard's cycle still goes in one move up to
 * about 190,000 dp/s.
 */
const MOVE_MAX_SAMPLES = 24_000;

/** The shard of a device (FNV-1a of its id). */
export function inboxShard(deviceId: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < deviceId.length; i += 1) {
    hash ^= deviceId.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % INBOX_SHARDS;
}

/**
 * The ranges of row ids a shard's samples may be in: those the releases before gave its devices
 * (older than any row of its own range that is not theirs), then its own, where batches append.
 */
function shardRanges(shard: number): { lo: number; hi: number; own: boolean }[] {
  const ranges = [];
  for (let earlier = shard + INBOX_SHARDS; earlier < EARLIER_SHARDS; earlier += INBOX_SHARDS)
    ranges.push({ lo: earlier * INBOX_SHARD_SPAN, hi: (earlier + 1) * INBOX_SHARD_SPAN, own: false });
  ranges.push({ lo: shard * INBOX_SHARD_SPAN, hi: (shard + 1) * INBOX_SHARD_SPAN, own: true });
  return ranges;
}

/** The greatest row id of every shard (null when empty): one statement, a seek per shard. */
const LAST_IDS = `with shard(k) as (values ${Array.from({ length: INBOX_SHARDS }, (_, k) => `(${k})`).join(', ')})
  select k, (select max(id) from log_inbox_runs where id >= k * ${INBOX_SHARD_SPAN} and id < (k + 1) * ${INBOX_SHARD_SPAN}) as last
  from shard order by k`;

/** The first element of an inbox body whose times are differences (see {@link encodeInboxBody}). */
const TIME_DELTAS = 2;
/** The first element of a body whose times are differences and whose samples carry latest values. */
const WITH_LATEST = 3;

/**
 * A shard's samples of one batch as the JSON of an inbox row's `body`: runs of consecutive samples of
 * one device, in the order given. When every time is a whole number of ms (every frame of ingest),
 * `[2, [device, [code, dt, value, code, dt, value, ...]], ...]`, each `dt` the time less the run's
 * time before it (the first: less 0), so a frame's ten samples spell out their time once: the rows
 * are about half as long, and so is what the inbox writes to the WAL and the checkpoint copies
 * (docs/decisions.md, "Issue 41 item 3: what the profile of 30 November, noon, showed"). Otherwise
 * `[[device, [code, t, value, ...]], ...]` (the first format, which rows of an earlier release hold).
 *
 * With `latest` (the batch's latest values of these samples, whole-ms times only), the row also
 * stands for them: `[3, [device, code, t, extra, ...], runs...]`, the extras of those latest values
 * that have one; the move stores each channel's latest value from the samples (see
 * {@link appendToInbox}).
 */
export function encodeInboxBody(samples: readonly LogsTable[], latest?: readonly LatestValuesTable[]): string {
  const deltas = samples.every(({ t }) => Number.isSafeInteger(t));
  if (latest && !deltas) throw new Error('Latest values go into the inbox only with whole-ms times');
  const runs: unknown[] = latest ? [WITH_LATEST, extrasOf(latest)] : deltas ? [TIME_DELTAS] : [];
  let run: (string | number)[] | null = null;
  let device: string | null = null;
  let last = 0;
  for (const { device_id, code, t, value } of samples) {
    if (device_id !== device || !run) {
      device = device_id;
      run = [];
      runs.push([device_id, run]);
      last = 0;
    }
    run.push(code, deltas ? t - last : t, value);
    last = t;
  }
  return JSON.stringify(runs);
}

/** The extras of latest values that have one, as `[device, code, t, extra, ...]`. */
function extrasOf(latest: readonly LatestValuesTable[]): (string | number)[] {
  const extras: (string | number)[] = [];
  for (const { device_id, code, t, extra } of latest) if (extra !== null) extras.push(device_id, code, t, extra);
  return extras;
}

/** One channel's samples read from the inbox, in order of arrival, and its latest value so far. */
interface ChannelSamples {
  samples: LogsTable[];
  /** Whether no sample is older than the one before it (as a device sends them): then no sort. */
  inOrder: boolean;
  /** Its latest sample among those of rows that stand for latest values, and that sample's extra. */
  latest: LogsTable | null;
  extra: string | null;
}

/**
 * The samples of inbox rows read in order of arrival (bodies of any format), kept by device and
 * channel, so that they come out in key order by sorting the few devices and channels, not every
 * sample: the move's sort by key was about a twentieth of the writer thread (docs/decisions.md, issue
 * 41 item 3, round 6). Also the latest value of each channel as the batches' own upserts kept it: a
 * sample of a row that stands for latest values, at the same or a later time than the channel's
 * latest, replaces it (`shouldReplaceLatest`), so of equal times the later wins. A channel's latest
 * sample is always its batch's latest value (no sample of its batch is later, none at its time comes
 * after it), so its extra is the one its row holds for that channel and time.
 */
class InboxSamples {
  private readonly devices = new Map<string, Map<string, ChannelSamples>>();

  /** Reads one row's `body`, after the rows that arrived before it. */
  read(body: string): void {
    const runs = JSON.parse(body) as unknown[];
    const withLatest = runs[0] === WITH_LATEST;
    const deltas = withLatest || runs[0] === TIME_DELTAS;
    const extras = withLatest ? extrasByChannel(runs[1] as (string | number)[]) : null;
    for (let r = withLatest ? 2 : deltas ? 1 : 0; r < runs.length; r += 1) {
      const [device_id, run] = runs[r] as [string, (string | number)[]];
      let channels = this.devices.get(device_id);
      if (!channels) this.devices.set(device_id, (channels = new Map()));
      let t = 0;
      for (let i = 0; i < run.length; i += 3) {
        t = deltas ? t + (run[i + 1] as number) : (run[i + 1] as number);
        const code = run[i] as string;
        const sample = { device_id, code, t, value: run[i + 2] as number };
        let channel = channels.get(code);
        if (!channel) channels.set(code, (channel = { samples: [], inOrder: true, latest: null, extra: null }));
        else if (t < channel.samples[channel.samples.length - 1]!.t) channel.inOrder = false;
        channel.samples.push(sample);
        if (withLatest && (channel.latest === null || t >= channel.latest.t)) {
          const extra = extras?.get(`${device_id}\u0000${code}`);
          channel.latest = sample;
          channel.extra = extra?.t === t ? extra.extra : null;
        }
      }
    }
  }

  /**
   * The samples in key order (device, channel, time), of equal keys in order of arrival (as a stable
   * sort by `compareKeys` puts them), and the channels' latest values.
   */
  inKeyOrder(): { samples: LogsTable[]; latest: LatestValuesTable[] } {
    const samples: LogsTable[] = [];
    const latest: LatestValuesTable[] = [];
    for (const device of [...this.devices.keys()].sort(compareTexts)) {
      const channels = this.devices.get(device)!;
      for (const code of [...channels.keys()].sort(compareTexts)) {
        const channel = channels.get(code)!;
        if (!channel.inOrder) channel.samples.sort((a, b) => a.t - b.t);
        for (const sample of channel.samples) samples.push(sample);
        if (channel.latest) latest.push({ ...channel.latest, extra: channel.extra });
      }
    }
    return { samples, latest };
  }
}

const compareTexts = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The extras a row holds for its latest values (`[device, code, t, extra, ...]`), by device and channel. */
function extrasByChannel(extras: readonly (string | number)[]): Map<string, { t: number; extra: string }> | null {
  if (extras.length === 0) return null;
  const byChannel = new Map<string, { t: number; extra: string }>();
  for (let i = 0; i < extras.length; i += 4)
    byChannel.set(`${extras[i]}\u0000${extras[i + 1]}`, { t: extras[i + 2] as number, extra: extras[i + 3] as string });
  return byChannel;
}

/** Whether JSON keeps the sample as it is: a time and value that are finite numbers. */
const isPlainSample = ({ t, value }: LogsTable): boolean => Number.isFinite(t) && Number.isFinite(value);

/**
 * Whether `latest` holds exactly the latest value of each channel of `samples` by the rule of
 * `shouldReplaceLatest` (the frame writer's batches: each latest value is one of the samples), so the
 * inbox may stand for them.
 */
function isLatestOf(samples: readonly LogsTable[], latest: readonly LatestValuesTable[]): boolean {
  const channels = new Map<string, Map<string, LogsTable>>();
  let count = 0;
  for (const sample of samples) {
    let codes = channels.get(sample.device_id);
    if (!codes) channels.set(sample.device_id, (codes = new Map()));
    const current = codes.get(sample.code);
    if (!current) count += 1;
    if (!current || sample.t >= current.t) codes.set(sample.code, sample);
  }
  if (count !== latest.length) return false;
  for (const { device_id, code, t, value } of latest) {
    const sample = channels.get(device_id)?.get(code);
    if (!sample || sample.t !== t || sample.value !== value) return false;
  }
  return true;
}

/**
 * Moves the shards of the devices of latest values about to be upserted in a batch's own transaction:
 * latest values that earlier batches' rows stand for are stored first, so an older batch's value,
 * stored by a later move, never replaces this batch's of the same time (no batch of ingest needs it).
 */
async function moveBeforeLatest(trx: Transaction<Database>, latest: readonly LatestValuesTable[]): Promise<void> {
  if (latest.length > 0) await moveInbox(trx, [...new Set(latest.map((row) => row.device_id))]);
}

/**
 * Appends samples to the inbox in the caller's transaction (SQLite only), a row per shard at the end
 * of it, each device's samples in the order given; answers the shards written to. A batch holding a
 * time or value that is not a finite number (no frame of ingest has one) goes straight into `logs`
 * instead, whose constraints judge it as they judged the inbox's columns.
 *
 * `latest`, the batch's latest values: when they are those of its samples (every batch of ingest) and
 * the times are whole ms, the inbox's rows stand for them and the move stores them (in key order, one
 * upsert per channel per move instead of one per batch: docs/decisions.md, "Issue 41 item 3 (round
 * 5)"); readers of latest values move the inbox first, as readers of samples do. Otherwise they are
 * upserted here.
 *
 * `latestOfSamples`: the batch's latest values are its samples' own by `shouldReplaceLatest` (the
 * writer thread's batches), and `latest` need hold only those that have an extra; where they are
 * upserted here rather than stood for, it gives them all. Checking them against the samples cost the
 * writer thread as much again as working them out (docs/decisions.md, issue 41 items 1 and 3, "the
 * profile of 1 December, 02:33").
 */
export async function appendToInbox(
  trx: Transaction<Database>,
  samples: readonly LogsTable[],
  latest: readonly LatestValuesTable[] = [],
  latestOfSamples?: () => readonly LatestValuesTable[],
): Promise<number[]> {
  if (samples.length === 0 || !samples.every(isPlainSample)) {
    const all = latestOfSamples ? latestOfSamples() : latest;
    await moveBeforeLatest(trx, all);
    await insertLogs(trx, samples, all);
    return [];
  }
  const wholeMs = samples.every(({ t }) => Number.isSafeInteger(t));
  // Latest values said to be the samples' own need no check (the writer thread worked them out).
  const inRows = latestOfSamples ? wholeMs : latest.length > 0 && wholeMs && isLatestOf(samples, latest);
  if (!inRows) {
    const all = latestOfSamples ? latestOfSamples() : latest;
    await moveBeforeLatest(trx, all);
    await insertLogs(trx, [], all);
  }
  const byShard = new Map<number, LogsTable[]>();
  let device: string | null = null;
  let ofShard: LogsTable[] = [];
  for (const sample of samples) {
    // A frame's samples are consecutive: the shard is found once per run of a device.
    if (sample.device_id !== device) {
      device = sample.device_id;
      const shard = inboxShard(device);
      const found = byShard.get(shard);
      if (found) ofShard = found;
      else byShard.set(shard, (ofShard = []));
    }
    ofShard.push(sample);
  }
  const latestByShard = new Map<number, LatestValuesTable[]>();
  if (inRows) {
    for (const row of latest) {
      if (row.extra === null) continue;
      const shard = inboxShard(row.device_id);
      const found = latestByShard.get(shard);
      if (found) found.push(row);
      else latestByShard.set(shard, [row]);
    }
  }
  const { rows: last } = await trx.executeQuery<{ k: number; last: number | null }>(CompiledQuery.raw(LAST_IDS));
  const shards = [...byShard.keys()].sort((a, b) => a - b);
  const rows: LogInboxRunsTable[] = shards.map((shard) => {
    const ofShard = byShard.get(shard)!;
    const id = (last[shard]!.last ?? shard * INBOX_SHARD_SPAN) + 1;
    const body = encodeInboxBody(ofShard, inRows ? (latestByShard.get(shard) ?? []) : undefined);
    return { id, samples: ofShard.length, body };
  });
  // Each row at the end of its shard's range (a row id never used), so every row is inserted.
  await sqliteValues(trx, 'log_inbox_runs', ['id', 'samples', 'body'], rows, '', false, true);
  return shards;
}

/**
 * Moves the oldest rows of one shard (about {@link MOVE_MAX_SAMPLES} samples, one row at least) into
 * `logs` and the roll-ups, in the caller's transaction, in key order (many samples of a channel share
 * a page); answers how many samples left the inbox and whether the shard is now empty.
 */
async function moveShard(trx: Transaction<Database>, shard: number): Promise<{ moved: number; empty: boolean }> {
  // A range the releases before left rows in goes first, whole, before the shard's own: a device's
  // rows there are older than its rows in its own range.
  for (const { lo, hi, own } of shardRanges(shard)) {
    const moved = await moveRange(trx, lo, hi);
    if (moved) return { moved: moved.moved, empty: own && moved.emptied };
  }
  return { moved: 0, empty: true };
}

/**
 * Moves the oldest rows of `[lo, hi)` (see {@link moveShard}); null when it holds none, else how many
 * samples left the inbox and whether the range is now empty.
 */
async function moveRange(
  trx: Transaction<Database>,
  lo: number,
  hi: number,
): Promise<{ moved: number; emptied: boolean } | null> {
  // Rows up to the one that would take the move past MOVE_MAX_SAMPLES: the move stops before it.
  const { rows: heads } = await trx.executeQuery<{ id: number; samples: number }>(
    CompiledQuery.raw(`select id, samples from log_inbox_runs where id >= ? and id < ? order by id limit ?`, [
      lo,
      hi,
      MOVE_MAX_SAMPLES + 1,
    ]),
  );
  if (heads.length === 0) return null;
  let end = hi;
  let taken = 0;
  for (const [i, head] of heads.entries()) {
    if (i > 0 && taken + head.samples > MOVE_MAX_SAMPLES) {
      end = head.id;
      break;
    }
    taken += head.samples;
  }
  const { rows } = await trx.executeQuery<Pick<LogInboxRunsTable, 'id' | 'body'>>(
    CompiledQuery.raw(`delete from log_inbox_runs where id >= ? and id < ? returning id, body`, [lo, end]),
  );
  // In order of arrival (RETURNING promises no order); then, of samples with the same key, the one
  // that came first is inserted, the others skipped (a channel's samples keep their order of arrival,
  // sorted by time, stably, only when one is older than the one before it).
  rows.sort((a, b) => a.id - b.id);
  const read = new InboxSamples();
  for (const { body } of rows) read.read(body);
  const { samples, latest } = read.inKeyOrder();
  await insertLogs(trx, samples, latest);
  return { moved: samples.length, emptied: end === hi };
}

/** Whether a shard holds any row, in any of its ranges (a read: no write lock taken). */
async function shardHasRows(db: Kysely<Database>, shard: number): Promise<boolean> {
  for (const { lo, hi } of shardRanges(shard)) {
    const { rows } = await db.executeQuery<{ id: number }>(
      CompiledQuery.raw(`select id from log_inbox_runs where id >= ? and id < ? limit 1`, [lo, hi]),
    );
    if (rows.length > 0) return true;
  }
  return false;
}

/**
 * Moves one shard whole into `logs`, a transaction per {@link MOVE_MAX_SAMPLES} samples (or in the
 * caller's); answers how many rows left the inbox.
 */
async function moveWholeShard(db: Kysely<Database>, shard: number): Promise<number> {
  let moved = 0;
  for (;;) {
    if (!(await shardHasRows(db, shard))) return moved;
    const step = db.isTransaction
      ? await moveShard(db as Transaction<Database>, shard)
      : await db.transaction().execute((trx) => moveShard(trx, shard));
    moved += step.moved;
    if (step.empty) return moved;
  }
}

/**
 * Moves the inbox into `logs` and the roll-ups before a read: the shards of `deviceIds`, or every
 * shard. Nothing on PostgreSQL (no inbox). Every reader of samples or roll-ups calls it first, so it
 * reads every committed sample; answers how many rows moved.
 */
export async function moveInbox(db: Kysely<Database>, deviceIds?: readonly string[]): Promise<number> {
  // PostgreSQL's inbox holds only what batches add to the roll-ups and latest values (db/log-rollup-inbox.ts).
  if (!isSqlite(db)) return moveRollupInbox(db, deviceIds);
  const shards = deviceIds
    ? [...new Set(deviceIds.map(inboxShard))]
    : Array.from({ length: INBOX_SHARDS }, (_, k) => k);
  let moved = 0;
  for (const shard of shards) moved += await moveWholeShard(db, shard);
  return moved;
}

/** Samples in the inbox (SQLite; 0 on PostgreSQL). */
export async function inboxRows(db: Kysely<Database>): Promise<number> {
  if (!isSqlite(db)) return 0;
  const row = await db
    .selectFrom('log_inbox_runs')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('samples'), eb.lit(0)).as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface InboxMoverOptions {
  /** Each shard is moved about this often while it receives samples, in ms. */
  cycleMs?: number;
  /**
   * Runs a move where it cannot overlap a batch (the writer thread's queue); by default at once (one
   * connection runs one transaction at a time).
   */
  serialize?: (task: () => Promise<void>) => Promise<void>;
  onError?: (error: unknown) => void;
  /** The clock a shard's wait is counted on and its timer; the real ones unless a test moves its own. */
  timers?: Timers;
}

/**
 * Moves the inbox of the connection that appends to it, in short slices between batches: one shard at
 * a time, at least `cycleMs / INBOX_SHARDS` apart, each once it has gathered samples for about
 * `cycleMs` (so a move holds many samples per channel, and a batch waits for at most one slice).
 * Every shard is due when the mover starts: the inbox of a previous run is moved first.
 */
export class InboxMover {
  /** Since when each shard has held samples not moved (on the mover's clock). */
  private readonly waiting = new Map<number, number>();
  private readonly cycleMs: number;
  private readonly gapMs: number;
  private lastMove = -Infinity;
  private timer: Timer | null = null;
  private moving: Promise<void> | null = null;
  private closed = false;
  private readonly timers: Timers;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly options: InboxMoverOptions = {},
  ) {
    this.timers = options.timers ?? REAL_TIMERS;
    this.cycleMs = options.cycleMs ?? INBOX_CYCLE_MS;
    this.gapMs = this.cycleMs / INBOX_SHARDS;
    const since = this.timers.now() - this.cycleMs;
    for (let shard = 0; shard < INBOX_SHARDS; shard += 1) this.waiting.set(shard, since);
    this.schedule();
  }

  /** Notes shards a committed batch appended to. */
  appended(shards: readonly number[]): void {
    const now = this.timers.now();
    for (const shard of shards) if (!this.waiting.has(shard)) this.waiting.set(shard, now);
    this.schedule();
  }

  /**
   * Stops moving by time and moves whatever is left, whole (a shutdown leaves no sample behind). Called
   * where no batch is being written (after the writer's flush, or from the writer thread's queue).
   */
  async close(): Promise<void> {
    this.closed = true;
    this.timer?.cancel();
    this.timer = null;
    // A move already started finishes first (one connection runs one transaction at a time); one
    // queued behind this finds the mover closed.
    await moveInbox(this.db);
    this.waiting.clear();
  }

  /** The shard waiting longest, and when it is due (on the mover's clock). */
  private next(): { shard: number; due: number } | null {
    let oldest: { shard: number; since: number } | null = null;
    for (const [shard, since] of this.waiting) if (!oldest || since < oldest.since) oldest = { shard, since };
    if (!oldest) return null;
    return { shard: oldest.shard, due: Math.max(oldest.since + this.cycleMs, this.lastMove + this.gapMs) };
  }

  private schedule(): void {
    if (this.closed || this.timer || this.moving) return;
    const next = this.next();
    if (!next) return;
    this.timer = this.timers.setTimeout(
      () => {
        this.timer = null;
        this.moving = this.serialize(() => this.moveNext()).finally(() => {
          this.moving = null;
          this.schedule();
        });
      },
      Math.max(0, next.due - this.timers.now()),
    );
    // The mover never keeps the process alive by itself.
    this.timer.unref();
  }

  private async moveNext(): Promise<void> {
    const next = this.next();
    if (!next || this.closed) return;
    this.lastMove = this.timers.now();
    try {
      const { empty } = await this.db.transaction().execute((trx) => moveShard(trx, next.shard));
      // Rows appended during the move (another thread's batch) keep the shard waiting, from now.
      if (empty) this.waiting.delete(next.shard);
      else this.waiting.set(next.shard, this.lastMove - this.cycleMs + this.gapMs);
    } catch (error) {
      this.options.onError?.(error);
      this.waiting.set(next.shard, this.lastMove);
    }
  }

  private serialize(task: () => Promise<void>): Promise<void> {
    return this.options.serialize ? this.options.serialize(task) : task();
  }
}
