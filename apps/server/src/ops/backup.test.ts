import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { openStorage, type Storage } from '../db/database';
import { demoFleet } from '../seed/seed';
import { DeviceLoad, missingAcknowledged } from '../../testing/cluster/device-load';
import { freePort } from '../../testing/ports';
import { startServerProcess, type ServerProcess } from '../../testing/cluster/server-process';
import { freshPostgres, type FreshPostgres } from '../../testing/fresh-postgres';
import { DEMO_PASSWORD, TEST_POSTGRES_URL } from '../../testing/test-app';
import { until } from '../../testing/until';
import { backupKindOf } from './backup';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../../../..');

/** `npm run backup` / `npm run restore` as an operator runs them, on the database `url`. */
function backupCommand(command: 'backup' | 'restore', file: string, url: string) {
  return run(process.execPath, ['--import', 'tsx', 'apps/server/src/ops/backup-cli.ts', command, file], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', DATABASE_URL: url },
  });
}

describe.each(['sqlite', 'postgres'] as const)('backup and restore on %s', (dialect) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fieldlink-backup-'));
  const databases: FreshPostgres[] = [];
  const servers: ServerProcess[] = [];
  const storages: Storage[] = [];
  let load: DeviceLoad | undefined;
  /** The server's sources bundled once for the run (server-bundle.ts). */
  const bundle = inject('serverBundle');

  /** A new, empty database of the dialect. */
  async function emptyDatabase(name: string): Promise<string> {
    if (dialect === 'sqlite') return path.join(dir, `${name}.db`);
    const database = await freshPostgres('fieldlink_backup', TEST_POSTGRES_URL);
    databases.push(database);
    return database.url;
  }

  afterAll(async () => {
    await load?.close();
    for (const server of servers) await server.kill('SIGTERM');
    for (const storage of storages) await storage.close();
    for (const database of databases) await database.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('backs up under ingest, restores into an empty database, and keeps every frame acknowledged before', async () => {
    const url = await emptyDatabase('live');
    const mqttPort = await freePort();
    // No demo history: what a backup must hold is the frames acknowledged before it, and a day of history
    // was most of the server's first start (docs/decisions.md, "Issue 37 item 7 (round 11): the slowest
    // server files").
    const env = { FIELDLINK_DEMO_PASSWORD: DEMO_PASSWORD, FIELDLINK_DEMO_HISTORY_DAYS: '0' };
    servers.push(await startServerProcess({ ...env, DATABASE_URL: url, MQTT_PORT: String(mqttPort) }, { bundle }));
    const live = openStorage(url);
    storages.push(live);
    load = new DeviceLoad(`mqtt://127.0.0.1:${mqttPort}`, (await demoFleet(live.db)).slice(0, 5));
    await load.connect();
    load.start(20);
    await until(() => load!.ackedCount() > 300, 60_000);

    // Everything acknowledged before the backup begins must be in it; ingest goes on meanwhile.
    const before = new Map([...load.acked].map(([thingName, times]) => [thingName, [...times]]));
    const ackedBefore = load.ackedCount();
    const file = path.join(dir, `fieldlink-${dialect}.backup`);
    const { stdout } = await backupCommand('backup', file, url);
    expect(stdout).toMatch(/^Backed up to .+ \((sqlite|postgres), [\d.]+ MB, [\d.]+ s\)/);
    expect(backupKindOf(file)).toBe(dialect);
    await until(() => load!.ackedCount() > ackedBefore + 100, 60_000);
    await load.stop();

    // A second backup to the same file is refused: a backup never overwrites.
    await expect(backupCommand('backup', file, url)).rejects.toMatchObject({ stderr: /already exists/ });

    const restoredUrl = await emptyDatabase('restored');
    const restored = await backupCommand('restore', file, restoredUrl);
    expect(restored.stdout).toMatch(/^Restored /);
    // Only into an empty database.
    await expect(backupCommand('restore', file, restoredUrl)).rejects.toMatchObject({
      stderr: /already exists|tables/,
    });

    const copy = openStorage(restoredUrl);
    storages.push(copy);
    expect(await missingAcknowledged(copy.db, before)).toBe(0);
    expect(before.size).toBe(5);

    // The server starts on the restored database and answers a sign-in.
    const server = await startServerProcess({ ...env, DATABASE_URL: restoredUrl }, { bundle });
    servers.push(server);
    const signin = await fetch(`${server.url}/api/v1/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@fieldlink.test', password: DEMO_PASSWORD }),
    });
    expect(signin.status).toBe(200);
  }, 300_000);

  it('refuses a file that is no backup, and a backup of the other kind', async () => {
    const junk = path.join(dir, 'junk.backup');
    fs.writeFileSync(junk, 'not a backup at all');
    const url = await emptyDatabase('junk-target');
    await expect(backupCommand('restore', junk, url)).rejects.toMatchObject({ stderr: /not a Fieldlink backup/ });
    const other = path.join(dir, `other-${dialect}.backup`);
    fs.writeFileSync(other, dialect === 'sqlite' ? 'PGDMP\x01\x0e\x00' : 'SQLite format 3\0');
    await expect(backupCommand('restore', other, url)).rejects.toMatchObject({ stderr: /backup; DATABASE_URL names/ });
  }, 120_000);
});
