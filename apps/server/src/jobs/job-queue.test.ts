import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import { migrate, openStorage, type Storage } from '../db/database';
import { withClusterTables } from '../cluster/cluster-tables';
import { freshPostgres, type TestDatabase } from '../../testing/cluster/cluster-apps';
import { freePort } from '../../testing/ports';
import { DIALECTS } from '../../testing/test-app';
import { Mailer } from '../mail/mailer';
import { JobQueue, retryDelayMs } from './job-queue';

const quiet = { info: () => undefined, warn: () => undefined };

describe.each(DIALECTS)('background jobs on %s', (dialect) => {
  let storage: Storage;
  let database: TestDatabase | null = null;
  let clock = 1_800_000_000_000;
  const now = () => clock;
  const queue = (instance: string, options: { lockMs?: number; batch?: number } = {}) =>
    new JobQueue(storage.db, storage.dialect, instance, quiet, { now, pollMs: 50, ...options });
  const jobRows = () => withClusterTables(storage.db).selectFrom('jobs').selectAll().execute();

  beforeAll(async () => {
    database = dialect === 'postgres' ? await freshPostgres() : null;
    storage = openStorage(database?.url ?? ':memory:');
    await migrate(storage.db);
  });
  afterAll(async () => {
    await storage?.close();
    await database?.drop();
  });

  it('runs a job once and deletes it', async () => {
    const ran: unknown[] = [];
    const jobs = queue('one');
    jobs.register('test.once', async (payload) => void ran.push(payload));
    await jobs.enqueue('test.once', { n: 1 });
    expect(await jobs.runDue()).toBe(1);
    expect(await jobs.runDue()).toBe(0);
    expect(ran).toEqual([{ n: 1 }]);
    expect(await jobRows()).toEqual([]);
  });

  it('retries a failing job with back-off, then keeps it as failed with its error', async () => {
    const jobs = queue('retry');
    let calls = 0;
    jobs.register(
      'test.fail',
      async () => {
        calls += 1;
        throw new Error(`refused ${calls}`);
      },
      { maxAttempts: 3 },
    );
    await jobs.enqueue('test.fail', {});
    await jobs.runDue();
    expect(calls).toBe(1);
    expect(await jobs.runDue()).toBe(0); // not due before its back-off
    clock += retryDelayMs(1);
    await jobs.runDue();
    clock += retryDelayMs(2);
    await jobs.runDue();
    clock += retryDelayMs(3);
    expect(await jobs.runDue()).toBe(0);
    expect(calls).toBe(3);
    expect(await jobRows()).toMatchObject([{ state: 'failed', attempts: 3, last_error: 'refused 3' }]);
    expect(await jobs.depth()).toEqual({ queued: 0, failed: 1 });
    await withClusterTables(storage.db).deleteFrom('jobs').execute();
  });

  it('gives each of 300 jobs to exactly one of four instances claiming at once (SKIP LOCKED)', async () => {
    const runs = new Map<number, string[]>();
    const instances = ['i1', 'i2', 'i3', 'i4'].map((name) => {
      const jobs = queue(name, { batch: 7 });
      jobs.register('test.claim', async (payload) => {
        const { n } = payload as { n: number };
        runs.set(n, [...(runs.get(n) ?? []), name]);
        // A turn of the event loop inside each job, so the four claim and run interleaved.
        await new Promise((resolve) => setImmediate(resolve));
      });
      return jobs;
    });
    for (let n = 0; n < 300; n += 1) await instances[0]!.enqueue('test.claim', { n });
    const counts = await Promise.all(instances.map((jobs) => jobs.runDue()));
    expect(counts.reduce((sum, count) => sum + count, 0)).toBe(300);
    expect([...runs.values()].every((names) => names.length === 1)).toBe(true);
    expect(runs.size).toBe(300);
    if (dialect === 'postgres') expect(counts.filter((count) => count > 0).length).toBeGreaterThan(1);
  });

  it('claims again a job whose holder died, once its lease has run out', async () => {
    const dead = queue('dead', { lockMs: 60_000 });
    dead.register('test.lease', async () => undefined);
    await dead.enqueue('test.lease', {});
    expect(await dead.claim()).toHaveLength(1); // claimed, never finished
    const alive = queue('alive', { lockMs: 60_000 });
    let ran = 0;
    alive.register('test.lease', async () => void (ran += 1));
    expect(await alive.runDue()).toBe(0);
    clock += 60_001;
    expect(await alive.runDue()).toBe(1);
    expect(ran).toBe(1);
  });

  it('renews the lease of a job that runs longer than it, so no other instance runs it meanwhile', async () => {
    const holder = new JobQueue(storage.db, storage.dialect, 'holder', quiet, { now, lockMs: 60_000, renewMs: 10 });
    let release = () => undefined as void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let runs = 0;
    holder.register('test.long', async () => {
      runs += 1;
      await gate;
    });
    await holder.enqueue('test.long', {});
    const running = holder.runDue();
    const other = queue('other', { lockMs: 60_000 });
    other.register('test.long', async () => void (runs += 1));
    const leaseEnd = async () => (await jobRows()).find((job) => job.kind === 'test.long')?.locked_until;
    for (let step = 0; step < 3; step += 1) {
      // Most of a lease passes; the holder, still running, renews it from the time it is now.
      clock += 50_000;
      const renewedBy = clock + 60_000;
      await expect.poll(leaseEnd, { timeout: 5000, interval: 5 }).toBe(renewedBy);
      expect(await other.runDue()).toBe(0);
    }
    release();
    expect(await running).toBe(1);
    clock += 120_000;
    expect(await other.runDue()).toBe(0);
    expect(runs).toBe(1);
    expect(await jobRows()).toEqual([]);
  });

  it('sends mail through a job, retrying while the SMTP server is away', async () => {
    const port = await freePort();
    const received: string[] = [];
    const jobs = queue('mail');
    const mailer = new Mailer(storage.db, `smtp://127.0.0.1:${port}`, 'Fieldlink <a@b.test>', quiet, jobs);
    await mailer.send({ to: 'pat@example.test', subject: 'Welcome', text: 'Hello' });
    await jobs.runDue(); // nobody listens yet
    const outbox = () => storage.db.selectFrom('outbox').selectAll().where('to_address', '=', 'pat@example.test');
    expect(await outbox().executeTakeFirst()).toMatchObject({
      sent_at: null,
      error: expect.stringMatching(/ECONNREFUSED/),
    });

    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, _session, callback) {
        let text = '';
        stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
        stream.on('end', () => {
          received.push(text);
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(port, '127.0.0.1', resolve));
    try {
      clock += retryDelayMs(1);
      expect(await jobs.runDue()).toBe(1);
      expect(received.join()).toMatch(/Subject: Welcome/);
      expect(await outbox().executeTakeFirst()).toMatchObject({ sent_at: expect.any(Number), error: null });
    } finally {
      mailer.close();
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    }
  });
});
