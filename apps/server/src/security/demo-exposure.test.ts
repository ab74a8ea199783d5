import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../config';
import { startServerProcess, type ServerProcess } from '../../testing/cluster/server-process';
import { DEMO_PASSWORD, DIALECTS, startTestApp, type TestApp } from '../../testing/test-app';
import { hashPassword } from './passwords';
import { listenAddress } from './demo-exposure';

describe.each(DIALECTS)('where the server listens while demo users have the published password, on %s', (dialect) => {
  let t: TestApp;
  // The test installation's demo users stand for a fresh `npm start`: their password is the "published" one.
  const published = DEMO_PASSWORD;
  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(async () => t?.close());

  it('listens on loopback only when HOST is not set', async () => {
    expect(loadConfig({}).host).toBeNull();
    expect(await listenAddress(t.app.storage.db, null, published)).toEqual({
      host: '127.0.0.1',
      publishedPasswordUser: 'admin@fieldlink.test',
    });
  });

  it.each(['0.0.0.0', '::', '192.0.2.2'])(
    'refuses to start on HOST=%s, naming the user and the way out',
    async (host) => {
      await expect(listenAddress(t.app.storage.db, host, published)).rejects.toThrow(
        `HOST=${host} would open the console to the network while the demo user admin@fieldlink.test still has the published password.`,
      );
    },
  );

  it.each(['127.0.0.1', 'localhost', '::1'])('takes HOST=%s as it is', async (host) => {
    expect(await listenAddress(t.app.storage.db, host, published)).toEqual({ host, publishedPasswordUser: null });
  });

  it('listens everywhere (or on HOST) once every demo user has a password of their own', async () => {
    const db = t.app.storage.db;
    await db
      .updateTable('users')
      .set({ password_hash: await hashPassword('a password of my own') })
      .where('email', '=', 'admin@fieldlink.test')
      .execute();
    // One demo user still has it: still loopback, and that user is named.
    expect((await listenAddress(db, null, published)).publishedPasswordUser).toBe('brew@fieldlink.test');
    await db
      .updateTable('users')
      .set({ password_hash: await hashPassword('another of my own') })
      .execute();
    expect(await listenAddress(db, null, published)).toEqual({ host: '0.0.0.0', publishedPasswordUser: null });
    expect(await listenAddress(db, '192.0.2.2', published)).toEqual({ host: '192.0.2.2', publishedPasswordUser: null });
    // Two new hashes and every demo user's checked twice: scrypt at N = 2^17 takes its time on a loaded machine.
  }, 120_000);
});

describe('a fresh `npm start`', () => {
  let server: ServerProcess;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'fieldlink-fresh-'));
    // No HOST and no FIELDLINK_DEMO_PASSWORD: the demo users get the README's password.
    server = await startServerProcess(
      { HOST: '', DATABASE_URL: path.join(dataDir, 'fieldlink.db'), FIELDLINK_DEMO_HISTORY_DAYS: '0' },
      { bundle: inject('serverBundle') },
    );
  }, 120_000);
  afterAll(async () => {
    await server?.kill('SIGINT');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers on loopback, says why it listens there only, and is not reachable from the network', async () => {
    expect((await fetch(`${server.url}/api/v1/health`)).ok).toBe(true);
    expect(server.output()).toContain('Listening:  on 127.0.0.1 only: demo users have the published password');
    const port = new URL(server.url).port;
    const outward = Object.values(os.networkInterfaces())
      .flat()
      .filter((address) => address && !address.internal && address.family === 'IPv4');
    for (const address of outward) {
      await expect(fetch(`http://${address!.address}:${port}/api/v1/health`)).rejects.toThrow();
    }
  });
});
