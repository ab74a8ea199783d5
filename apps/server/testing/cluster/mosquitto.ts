import { spawn, type ChildProcess } from 'node:child_process';
import { pbkdf2Sync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../ports';

/** Debian's Mosquitto 2 and its dynamic-security plugin (`.ci/run` installs the package). */
export const MOSQUITTO_BIN = process.env.FIELDLINK_TEST_MOSQUITTO ?? '/usr/sbin/mosquitto';
export const DYNSEC_PLUGIN =
  process.env.FIELDLINK_TEST_DYNSEC_PLUGIN ?? '/usr/lib/x86_64-linux-gnu/mosquitto_dynamic_security.so';

export interface TestMosquitto {
  readonly port: number;
  /** `mqtt://127.0.0.1:port`, without credentials. */
  readonly url: string;
  readonly adminUsername: string;
  readonly adminPassword: string;
  readonly dir: string;
  /** Graceful stop (SIGTERM): sessions and queued messages are saved to the persistence file. */
  stop(): Promise<void>;
  /** kill -9: whatever was not yet saved is gone. */
  kill(): Promise<void>;
  start(): Promise<void>;
  /** Stops, removes the directory. */
  close(): Promise<void>;
  log(): string;
  /** Process id of the running broker, or null while stopped. */
  pid(): number | null;
}

/** The way `mosquitto_ctrl dynsec init` stores a password: PBKDF2-SHA512, 101 iterations. */
function dynsecPassword(password: string): { password: string; salt: string; iterations: number } {
  const salt = randomBytes(12);
  const iterations = 101;
  return {
    password: pbkdf2Sync(password, salt, iterations, 64, 'sha512').toString('base64'),
    salt: salt.toString('base64'),
    iterations,
  };
}

/** The dynamic-security file `mosquitto_ctrl dynsec init` writes: one admin client with the admin role. */
function dynsecConfig(username: string, password: string): object {
  const allow = (acltype: string, topic: string) => ({ acltype, topic, allow: true });
  return {
    clients: [{ username, textName: 'Fieldlink', ...dynsecPassword(password), roles: [{ rolename: 'admin' }] }],
    roles: [
      {
        rolename: 'admin',
        acls: [
          allow('publishClientSend', '$CONTROL/dynamic-security/#'),
          allow('publishClientReceive', '$CONTROL/dynamic-security/#'),
          allow('subscribePattern', '$CONTROL/dynamic-security/#'),
          allow('publishClientReceive', '$SYS/#'),
          allow('subscribePattern', '$SYS/#'),
          allow('publishClientReceive', '#'),
          allow('subscribePattern', '#'),
          allow('unsubscribePattern', '#'),
        ],
      },
    ],
    defaultACLAccess: { publishClientSend: false, publishClientReceive: true, subscribe: false, unsubscribe: true },
  };
}

/** Waits until mosquitto (`child`) listens on `port`; throws if it exits first or takes too long. */
export async function waitForPort(port: number, timeoutMs: number, child: ChildProcess): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (child.exitCode !== null) throw new Error(`mosquitto exited with ${child.exitCode}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`mosquitto did not listen on ${port} within ${timeoutMs} ms`);
}

/**
 * A real Mosquitto 2 on a free loopback port with the dynamic-security plugin, persistence and the
 * settings docs/operations.md recommends, in a temporary directory.
 */
export async function startMosquitto(): Promise<TestMosquitto> {
  if (!fs.existsSync(MOSQUITTO_BIN) || !fs.existsSync(DYNSEC_PLUGIN)) {
    throw new Error(
      `Mosquitto 2 with its dynamic-security plugin is needed (${MOSQUITTO_BIN}); bash .ci/run installs it`,
    );
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fieldlink-mosquitto-'));
  const port = await freePort();
  const adminUsername = 'fieldlink';
  const adminPassword = randomBytes(12).toString('base64url');
  fs.writeFileSync(path.join(dir, 'dynamic-security.json'), JSON.stringify(dynsecConfig(adminUsername, adminPassword)));
  fs.writeFileSync(
    path.join(dir, 'mosquitto.conf'),
    [
      'per_listener_settings false',
      `listener ${port} 127.0.0.1`,
      'allow_anonymous false',
      `plugin ${DYNSEC_PLUGIN}`,
      `plugin_opt_config_file ${path.join(dir, 'dynamic-security.json')}`,
      'persistence true',
      `persistence_location ${dir}/`,
      'autosave_interval 60',
      'max_queued_messages 1000000',
      'max_queued_bytes 0',
      'max_packet_size 20000',
      'set_tcp_nodelay true',
      `log_dest file ${path.join(dir, 'mosquitto.log')}`,
      'log_type error',
      'log_type warning',
      'log_type notice',
      ...(process.env.FIELDLINK_TEST_MOSQUITTO_DEBUG ? ['log_type all'] : []),
      '',
    ].join('\n'),
  );
  // Started as root, Mosquitto drops to its own user, which must be able to write here.
  fs.chmodSync(dir, 0o777);
  for (const file of fs.readdirSync(dir)) fs.chmodSync(path.join(dir, file), 0o666);

  let child: ChildProcess | null = null;
  const start = async () => {
    const process = spawn(MOSQUITTO_BIN, ['-c', path.join(dir, 'mosquitto.conf')], { stdio: 'ignore' });
    child = process;
    await waitForPort(port, 10_000, process);
  };
  const stopWith = async (signal: NodeJS.Signals) => {
    const process = child;
    child = null;
    if (!process || process.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      process.once('exit', () => resolve());
      process.kill(signal);
    });
  };
  await start();
  return {
    port,
    url: `mqtt://127.0.0.1:${port}`,
    adminUsername,
    adminPassword,
    dir,
    start,
    stop: () => stopWith('SIGTERM'),
    kill: () => stopWith('SIGKILL'),
    close: async () => {
      await stopWith('SIGTERM');
      fs.rmSync(dir, { recursive: true, force: true });
    },
    pid: () => child?.pid ?? null,
    log: () => {
      try {
        return fs.readFileSync(path.join(dir, 'mosquitto.log'), 'utf8');
      } catch {
        return '';
      }
    },
  };
}
