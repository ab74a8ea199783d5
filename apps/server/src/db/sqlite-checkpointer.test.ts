import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate, openStorage } from './database';
import { insertLogs } from './log-writes';
import { until } from '../../testing/until';

describe('SQLite WAL checkpoints off the writing connection', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('copies committed pages into the database file from its own thread, and leaves no WAL once closed', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fieldlink-checkpointer-'));
    dirs.push(dir);
    const file = path.join(dir, 'fieldlink.db');
    const storage = openStorage(file);
    await migrate(storage.db);
    // The writing connection never checkpoints: the rows below reach the file only by the thread's.
    const { rows: setting } = await sql<{ wal_autocheckpoint: number }>`PRAGMA wal_autocheckpoint`.execute(storage.db);
    expect(setting).toEqual([{ wal_autocheckpoint: 0 }]);
    // Measured before the writes: on a loaded machine they outlast the thread's one-second turn, and
    // its checkpoints copy pages while they go on (a size taken after them had already grown).
    const before = fs.statSync(file).size;
    const t0 = Date.UTC(2026, 10, 20);
    for (let batch = 0; batch < 10; batch += 1) {
      const samples = Array.from({ length: 2000 }, (_, i) => ({
        device_id: `dev-${i % 50}`,
        code: `c${i % 7}`,
        t: t0 + batch * 10_000 + i,
        value: i,
      }));
      await insertLogs(storage.db, samples);
    }
    expect(fs.statSync(`${file}-wal`).size).toBeGreaterThan(1_000_000);
    await until(() => fs.statSync(file).size > before + 500_000, 20_000);
    const rows = await storage.db
      .selectFrom('logs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(rows.n)).toBe(20_000);
    await storage.close();
    expect(fs.existsSync(`${file}-wal`)).toBe(false);
  });
});
