import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './mosquitto';

const run = promisify(execFile);

/** Debian's PostgreSQL server binaries (the newest installed), or FIELDLINK_TEST_PG_BIN. */
export function postgresBin(): string | null {
  if (process.env.FIELDLINK_TEST_PG_BIN) return process.env.FIELDLINK_TEST_PG_BIN;
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return null;
  const versions = fs
    .readdirSync(root)
    .filter((name) => fs.existsSync(path.join(root, name, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(root, versions[0], 'bin') : null;
}

export interface TestPostgres {
  /** `postgres://postgres@127.0.0.1:port/postgres`: a role that may create databases. */
  readonly serverUrl: string;
  readonly port: number;
  /** Fast shutdown: open connections are terminated, as in a restart. */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A PostgreSQL server of its own, in a temporary directory on a free loopback port, which a fault
 * test may stop and start without disturbing the shared test server. initdb refuses to run as root:
 * as root it runs as the `postgres` user.
 */
export async function startPostgres(): Promise<TestPostgres> {
  const bin = postgresBin();
  if (!bin) throw new Error('No PostgreSQL server binaries under /usr/lib/postgresql');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fieldlink-pg-'));
  const data = path.join(dir, 'data');
  const port = await freePort();
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    fs.chmodSync(dir, 0o777);
    await run('chown', ['postgres:postgres', dir]);
  }
  const exec = (command: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', command, ...args]) : run(command, args);
  await exec(path.join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']);
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${dir} -c fsync=off -c max_connections=200`;
  const ctl = (...args: string[]) => exec(path.join(bin, 'pg_ctl'), ['-D', data, ...args]);
  const start = async () => {
    await ctl('-o', options, '-l', path.join(dir, 'postgres.log'), '-w', '-t', '30', 'start');
  };
  const stop = async () => {
    await ctl('-m', 'fast', '-w', '-t', '30', 'stop').catch(() => undefined);
  };
  await start();
  return {
    serverUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    start,
    stop,
    close: async () => {
      await stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
