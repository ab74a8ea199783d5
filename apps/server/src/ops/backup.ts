import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import Sqlite from 'better-sqlite3';
import pg from 'pg';
import { isPostgresUrl } from '../db/database';

const run = promisify(execFile);

/** What a backup file holds, told by its first bytes. */
export type BackupKind = 'sqlite' | 'postgres';

const SQLITE_MAGIC = 'SQLite format 3\0';
/** pg_dump's custom format begins with these five bytes. */
const PG_DUMP_MAGIC = 'PGDMP';

/** A finished backup or restore, for the command's one line. */
export interface BackupResult {
  kind: BackupKind;
  file: string;
  bytes: number;
  milliseconds: number;
}

function sqliteFileOf(url: string): string {
  return url.replace(/^sqlite:(\/\/)?/, '');
}

/** The kind of backup in `file`, or null when it is neither a SQLite file nor a pg_dump archive. */
export function backupKindOf(file: string): BackupKind | null {
  const head = Buffer.alloc(16);
  const fd = fs.openSync(file, 'r');
  try {
    fs.readSync(fd, head, 0, head.length, 0);
  } finally {
    fs.closeSync(fd);
  }
  if (head.toString('latin1') === SQLITE_MAGIC) return 'sqlite';
  return head.subarray(0, PG_DUMP_MAGIC.length).toString('latin1') === PG_DUMP_MAGIC ? 'postgres' : null;
}

/**
 * The `bin` folder of Debian's newest PostgreSQL under `root` that has `program`, or null. The test
 * harness finds its server binaries (initdb) the same way.
 */
export function newestPostgresBin(program: string, root = '/usr/lib/postgresql'): string | null {
  const versions = fs.existsSync(root)
    ? fs
        .readdirSync(root)
        .filter((version) => fs.existsSync(path.join(root, version, 'bin', program)))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  return versions[0] ? path.join(root, versions[0], 'bin') : null;
}

/**
 * A PostgreSQL client program (`pg_dump`, `pg_restore`): in `PG_BIN` when set, else Debian's newest
 * under /usr/lib/postgresql (its pg_dump must not be older than the server), else on the PATH.
 */
export function postgresProgram(name: 'pg_dump' | 'pg_restore', env: NodeJS.ProcessEnv = process.env): string {
  const bin = env.PG_BIN ?? newestPostgresBin(name);
  return bin ? path.join(bin, name) : name;
}

/** Refuses to overwrite: a backup never replaces a file, and a restore never lands on a database in use. */
function refuseExisting(file: string): void {
  if (fs.existsSync(file)) throw new Error(`${file} already exists: choose a new file`);
}

/**
 * A consistent copy of the database at `url` in `file`, made while the server runs.
 *
 * SQLite: `VACUUM INTO` reads one snapshot in a read transaction (WAL lets the server go on writing)
 * and writes a compact copy; unlike the page-by-page backup API it never restarts when another
 * connection writes, which under steady ingest it would do at every step. PostgreSQL: `pg_dump` in
 * its custom format, which reads one snapshot too. Either is written beside `file` and renamed into
 * place when whole, so a failed backup leaves no file that looks like one.
 */
export async function backupDatabase(
  url: string,
  file: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<BackupResult> {
  const started = Date.now();
  const target = path.resolve(file);
  refuseExisting(target);
  const partial = `${target}.partial-${process.pid}`;
  fs.rmSync(partial, { force: true });
  try {
    if (isPostgresUrl(url)) {
      await run(
        postgresProgram('pg_dump', env),
        ['--format=custom', '--no-owner', `--file=${partial}`, `--dbname=${url}`],
        {
          maxBuffer: 16 * 1024 * 1024,
        },
      );
    } else {
      const source = sqliteFileOf(url);
      if (!fs.existsSync(source)) throw new Error(`No SQLite database at ${source}`);
      const db = new Sqlite(source, { readonly: true, fileMustExist: true });
      try {
        db.pragma('busy_timeout = 10000');
        db.prepare('VACUUM INTO ?').run(partial);
      } finally {
        db.close();
      }
    }
    fs.renameSync(partial, target);
  } catch (error) {
    fs.rmSync(partial, { force: true });
    throw error;
  }
  const kind: BackupKind = isPostgresUrl(url) ? 'postgres' : 'sqlite';
  return { kind, file: target, bytes: fs.statSync(target).size, milliseconds: Date.now() - started };
}

/** The tables a PostgreSQL database already has: a restore goes only into an empty one. */
async function postgresTableCount(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const answer = await client.query<{ count: string }>(
      `select count(*) as count from information_schema.tables
        where table_schema not in ('pg_catalog', 'information_schema')`,
    );
    return Number(answer.rows[0]!.count);
  } finally {
    await client.end();
  }
}

/**
 * Restores `file` (made by {@link backupDatabase}) into the empty database at `url`, of the same
 * kind. SQLite: the backup is checked (`integrity_check`) and copied into place; the database file
 * must not exist yet. PostgreSQL: `pg_restore` in one transaction into a database with no tables,
 * so a failure leaves it empty. Start the server on it afterwards: it migrates a backup of an older
 * release forward as at any start.
 */
export async function restoreDatabase(
  url: string,
  file: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<BackupResult> {
  const started = Date.now();
  const source = path.resolve(file);
  if (!fs.existsSync(source)) throw new Error(`No backup at ${source}`);
  const kind = backupKindOf(source);
  if (kind === null)
    throw new Error(`${source} is not a Fieldlink backup (neither a SQLite file nor a pg_dump archive)`);
  const wanted: BackupKind = isPostgresUrl(url) ? 'postgres' : 'sqlite';
  if (kind !== wanted) throw new Error(`${source} is a ${kind} backup; DATABASE_URL names a ${wanted} database`);
  if (kind === 'postgres') {
    const tables = await postgresTableCount(url);
    if (tables > 0) throw new Error(`The database has ${tables} tables: restore into an empty database`);
    await run(
      postgresProgram('pg_restore', env),
      ['--no-owner', '--exit-on-error', '--single-transaction', `--dbname=${url}`, source],
      { maxBuffer: 16 * 1024 * 1024 },
    );
  } else {
    const target = path.resolve(sqliteFileOf(url));
    refuseExisting(target);
    const check = new Sqlite(source, { readonly: true, fileMustExist: true });
    try {
      const result = check.pragma('integrity_check', { simple: true });
      if (result !== 'ok') throw new Error(`${source} is damaged: ${String(result)}`);
    } finally {
      check.close();
    }
    fs.mkdirSync(path.dirname(target), { recursive: true });
    const partial = `${target}.partial-${process.pid}`;
    fs.copyFileSync(source, partial);
    fs.renameSync(partial, target);
  }
  return { kind, file: source, bytes: fs.statSync(source).size, milliseconds: Date.now() - started };
}
