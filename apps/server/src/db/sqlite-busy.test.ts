import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startTestApp, type TestApp } from '../../testing/test-app';

/** Another process that takes the database's write lock and holds it until killed (at most 15 s). */
function holdWriteLock(file: string): Promise<ChildProcess> {
  const script = `
    const db = require('better-sqlite3')(process.argv[1]);
    db.exec('begin immediate');
    db.prepare('create table if not exists lock_holder (n integer)').run();
    process.stdout.write('locked\\n');
    // eslint-disable-next-line no-restricted-syntax -- the child's own program: it holds the lock until killed
    setTimeout(() => { db.exec('commit'); db.close(); }, 15000);
  `;
  const child = spawn(process.execPath, ['-e', script, file], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('locked') && resolve(child));
    child.once('exit', (code) => reject(new Error(`lock holder exited with ${code}`)));
  });
}

/** SECURITY.md 17: another process holding SQLite's write lock neither freezes the server nor stops reads. */
describe('SQLite while another process holds the write lock', () => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'fieldlink-busy-'));
    t = await startTestApp('sqlite', { env: { DATABASE_URL: path.join(dir, 'fieldlink.db') } });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps answering reads at once, answers writes 503 with retry-after, and recovers', async () => {
    const authorization = await signIn(t.app, 'viewer@fieldlink.test');
    const write = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/event-log',
        payload: { error: 'busy test' },
        remoteAddress: '10.9.0.1',
      });
    const holder = await holdWriteLock(path.join(dir, 'fieldlink.db'));
    try {
      let writeAnswered = false;
      const pendingWrite = write().finally(() => (writeAnswered = true));
      // Reads one after another for as long as the write waits for the lock (its retries' deadline).
      // Before: each read waited out the synchronous busy wait of the writes (13.8 s measured), so none
      // was answered while a write waited. Counted, not timed: a loaded machine cannot decide it.
      let readsWhileWriteWaits = 0;
      while (!writeAnswered) {
        const self = await t.app.inject({ method: 'GET', url: '/api/v1/self', headers: { authorization } });
        expect(self.statusCode).toBe(200);
        if (!writeAnswered) readsWhileWriteWaits += 1;
        // A turn of the event loop (no time), so the write's retry timers run between two reads.
        await new Promise((resolve) => setImmediate(resolve));
      }
      expect(readsWhileWriteWaits).toBeGreaterThanOrEqual(8);
      const refused = await pendingWrite;
      expect(refused.statusCode).toBe(503);
      expect(refused.headers['retry-after']).toBeDefined();
    } finally {
      holder.kill('SIGKILL');
    }
    await new Promise((resolve) => holder.once('exit', resolve));
    expect((await write()).statusCode).toBe(200);
  }, 60_000);
});
