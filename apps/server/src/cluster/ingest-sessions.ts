import type { ClusterDatabase } from './cluster-tables';

export interface SessionRegistryLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

export interface SessionRegistryHandlers {
  /** A session whose holder stopped renewing its lease (last at `heldUntil`) is now ours to drain. */
  onAdopt(clientId: string, heldUntil: number): void;
  /** A session we held was adopted by another instance (we missed our lease): stop using it. */
  onLost(clientId: string): void;
}

export interface SessionRegistryOptions {
  /** A holder that has not renewed for this long is presumed dead. */
  leaseMs: number;
  logger: SessionRegistryLogger;
  now?: () => number;
}

/**
 * Which instance holds which persistent ingest session at the broker. Mosquitto keeps routing a
 * share of the frames to a member of a shared subscription while it is offline, and sends a frame
 * it has not had acknowledged only to the same client id: so when an instance dies, another one
 * takes over its client id, stores what the session holds, and ends it (docs/decisions.md
 * "Cluster"). Each holder renews its rows every third of the lease; a row not renewed for a lease is
 * taken by a compare-and-set on its last renewal, so exactly one instance adopts it.
 */
export class IngestSessionRegistry {
  private readonly held = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  /** Since when every renewal has succeeded; null after a failure (the database was away). */
  private healthySince: number | null = null;
  private handlers: SessionRegistryHandlers | null = null;
  private ticking: Promise<void> | null = null;
  private onTick: (() => Promise<void>) | null = null;
  private readonly now: () => number;

  constructor(
    private readonly db: ClusterDatabase,
    readonly instanceId: string,
    private readonly options: SessionRegistryOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  /** Records a new session of this instance. */
  async register(clientId: string): Promise<void> {
    const now = this.now();
    await this.db
      .insertInto('ingest_sessions')
      .values({ client_id: clientId, instance_id: this.instanceId, heartbeat_at: now, created_at: now })
      .execute();
    this.held.add(clientId);
  }

  /**
   * Takes a session shared by the whole cluster (the single-holder ingest session) when nobody holds
   * it; answers whether this instance holds it now. A holder that died is replaced through `tick`.
   */
  async claim(clientId: string): Promise<boolean> {
    const now = this.now();
    await this.db
      .insertInto('ingest_sessions')
      .values({ client_id: clientId, instance_id: this.instanceId, heartbeat_at: now, created_at: now })
      .onConflict((oc) => oc.column('client_id').doNothing())
      .execute();
    const row = await this.db
      .selectFrom('ingest_sessions')
      .select('instance_id')
      .where('client_id', '=', clientId)
      .executeTakeFirst();
    const mine = row?.instance_id === this.instanceId;
    if (mine) this.held.add(clientId);
    return mine;
  }

  /** Whether this instance holds the session now (as far as it knows). */
  holds(clientId: string): boolean {
    return this.held.has(clientId);
  }

  /** Forgets a session that was ended at the broker. */
  async release(clientId: string): Promise<void> {
    this.held.delete(clientId);
    await this.db
      .deleteFrom('ingest_sessions')
      .where('client_id', '=', clientId)
      .where('instance_id', '=', this.instanceId)
      .execute();
  }

  /** Gives a session back unfinished: its lease is expired at once, so any instance may adopt it again. */
  async abandon(clientId: string): Promise<void> {
    this.held.delete(clientId);
    await this.db
      .updateTable('ingest_sessions')
      .set({ heartbeat_at: this.now() - this.options.leaseMs - 1 })
      .where('client_id', '=', clientId)
      .where('instance_id', '=', this.instanceId)
      .execute();
  }

  start(handlers: SessionRegistryHandlers & { onTick?: () => Promise<void> }): void {
    this.handlers = handlers;
    this.onTick = handlers.onTick ?? null;
    const every = Math.max(100, Math.floor(this.options.leaseMs / 3));
    this.timer = setInterval(() => {
      if (!this.ticking) this.ticking = this.tick().finally(() => (this.ticking = null));
    }, every);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.ticking;
  }

  /** Renews this instance's leases, notices lost ones, and adopts sessions of dead holders. */
  async tick(): Promise<void> {
    const now = this.now();
    let mine: Set<string>;
    try {
      await this.db
        .updateTable('ingest_sessions')
        .set({ heartbeat_at: now })
        .where('instance_id', '=', this.instanceId)
        .execute();
      const rows = await this.db
        .selectFrom('ingest_sessions')
        .select('client_id')
        .where('instance_id', '=', this.instanceId)
        .execute();
      mine = new Set(rows.map((row) => row.client_id));
      this.healthySince ??= now;
    } catch (error) {
      if (this.healthySince !== null) {
        this.options.logger.warn({ error: (error as Error).message }, 'Ingest session leases not renewed');
      }
      this.healthySince = null;
      return;
    }
    for (const clientId of [...this.held]) {
      if (mine.has(clientId)) continue;
      this.held.delete(clientId);
      this.options.logger.warn({ clientId }, 'Ingest session taken over by another instance');
      this.handlers?.onLost(clientId);
    }
    // After an outage every lease looks expired: adopt only once this instance has renewed its own
    // for a whole lease, by which time every live holder has renewed too.
    if (now - this.healthySince! < this.options.leaseMs) return;
    await this.adoptExpired(now).catch((error: unknown) =>
      this.options.logger.warn({ error: (error as Error).message }, 'Could not adopt ingest sessions'),
    );
    await this.onTick?.().catch(() => undefined);
  }

  private async adoptExpired(now: number): Promise<void> {
    const expired = await this.db
      .selectFrom('ingest_sessions')
      .select(['client_id', 'instance_id', 'heartbeat_at'])
      .where('heartbeat_at', '<', now - this.options.leaseMs)
      .where('instance_id', '!=', this.instanceId)
      .execute();
    for (const row of expired) {
      const taken = await this.db
        .updateTable('ingest_sessions')
        .set({ instance_id: this.instanceId, heartbeat_at: now })
        .where('client_id', '=', row.client_id)
        .where('heartbeat_at', '=', row.heartbeat_at)
        .where('instance_id', '=', row.instance_id)
        .executeTakeFirst();
      if (Number(taken.numUpdatedRows) !== 1) continue; // another instance was quicker
      this.held.add(row.client_id);
      this.options.logger.info(
        { clientId: row.client_id, from: row.instance_id },
        'Adopting the ingest session of a stopped instance',
      );
      this.handlers?.onAdopt(row.client_id, row.heartbeat_at);
    }
  }
}
