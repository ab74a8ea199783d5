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

/** A promise the test settles: a job that awaits it runs for as long as the test wants. */
function gate() {
  let open = () => undefined as void;
  const closed = new Promise<void>((resolve) => (open = resolve));
  return { closed, open };
}

describe.each(DIALECTS)('background jobs on %s', (dialect) => {
  let storage: Storage;
  let database: TestDatabase | null = null;
  let clock = 1_800_000_000_000;
  const now = () => clock;
  const queue = (instance: string, options: { lockMs?: number; batch?: number } = {}) =>
    new JobQueue(storage.db, storage.dialect, instance, quiet, { now, pollMs: 50, ...options });
  const jobRows = () => withClusterTables(storage.db).selectFrom('jobs').selectAll().execute();
  const waitLong = { timeout: 5000, interval: 5 };
  const clearJobs = () => withClusterTables(storage.db).deleteFrom('jobs').execute();

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

  it('runs a job added while a slow one runs, without waiting for the slow one to end', async () => {
    const jobs = queue('slots');
    const slow = gate();
    const events: string[] = [];
    jobs.register('test.slow', async () => {
      events.push('slow started');
      await slow.closed;
      events.push('slow ended');
    });
    jobs.register('test.quick', async () => void events.push('quick ran'));
    jobs.start();
    try {
      await jobs.enqueue('test.slow', {});
      jobs.nudge();
      await expect.poll(() => events, waitLong).toEqual(['slow started']);
      await jobs.enqueue('test.quick', {});
      jobs.nudge();
      // Finished (its row deleted) while the slow job still runs: it did not wait for the batch to end.
      await expect.poll(() => jobs.counters.succeeded, waitLong).toBe(1);
      expect(events).toEqual(['slow started', 'quick ran']);
      expect((await jobRows()).map((job) => job.kind)).toEqual(['test.slow']);
      slow.open();
      await jobs.stop();
      expect(events).toEqual(['slow started', 'quick ran', 'slow ended']);
      expect(await jobRows()).toEqual([]);
    } finally {
      slow.open();
      await jobs.stop();
      await clearJobs();
    }
  });

  it('never runs more than `batch` jobs at once; a freed slot takes the next due job', async () => {
    const jobs = queue('two-slots', { batch: 2 });
    let running = 0;
    let most = 0;
    const releases: Array<() => void> = [];
    const over = gate(); // lets every job end, those started later too, however the test ends
    jobs.register('test.slot', async () => {
      running += 1;
      most = Math.max(most, running);
      await Promise.race([new Promise<void>((resolve) => releases.push(resolve)), over.closed]);
      running -= 1;
    });
    for (let n = 0; n < 5; n += 1) await jobs.enqueue('test.slot', { n });
    jobs.start();
    try {
      for (let released = 0; released < 5; released += 1) {
        // Two slots: two jobs start, then one more each time one ends.
        await expect.poll(() => releases.length, waitLong).toBe(Math.min(5, released + 2));
        expect(running).toBe(Math.min(2, 5 - released));
        releases[released]!();
      }
      await expect.poll(() => jobs.counters.succeeded, waitLong).toBe(5);
      expect(most).toBe(2);
      expect(await jobRows()).toEqual([]);
    } finally {
      over.open();
      await jobs.stop();
      await clearJobs();
    }
  });

  it('stops claiming on stop() and waits for the jobs in flight', async () => {
    const jobs = new JobQueue(storage.db, storage.dialect, 'stopper', quiet, {
      now,
      pollMs: 50,
      lockMs: 60_000,
      renewMs: 10,
    });
    const slow = gate();
    let started = false;
    jobs.register('test.stop', async () => {
      started = true;
      await slow.closed;
    });
    jobs.register('test.after-stop', async () => undefined);
    await jobs.enqueue('test.stop', {});
    jobs.start();
    try {
      await expect.poll(() => started, waitLong).toBe(true);
      let stopped = false;
      const stopping = jobs.stop().then(() => (stopped = true));
      await jobs.enqueue('test.after-stop', {});
      jobs.nudge();
      // Time passes while stop() waits: the job, still running, renews its lease from the time it is now.
      clock += 50_000;
      const renewedBy = clock + 60_000;
      const leaseEnd = async () => (await jobRows()).find((job) => job.kind === 'test.stop')?.locked_until;
      await expect.poll(leaseEnd, waitLong).toBe(renewedBy);
      expect(stopped).toBe(false);

      slow.open();
      await stopping;
      // The job ended and its row was deleted before stop() answered; the job added meanwhile was not claimed.
      expect(jobs.counters.succeeded).toBe(1);
      expect(await jobRows()).toMatchObject([{ kind: 'test.after-stop', attempts: 0, locked_by: null }]);
    } finally {
      slow.open();
      await jobs.stop();
      await clearJobs();
    }
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
