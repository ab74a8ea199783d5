import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import WebSocket from 'ws';
import { deviceDownTopic } from '@fieldlink/api/mqtt-topics';
import { REALTIME_PATH, REALTIME_PROTOCOL } from '@fieldlink/api/realtime';
import { freePort } from '@fieldlink/server/testing';
import { connectDevices, processUsage, provision, signIn, sleep, startInstance } from './cluster-support';
import { percentile } from './percentile';

/**
 * A real-time command flood from one shared login (issue 34, item 2): one socket of a VIEW_DASH user
 * who may operate (ops@; the demo viewer is monitor-only) sends up to 240,000 `server/writeChannel`
 * to an online device that never answers, as fast as the socket takes them, for at most
 * {@link FLOOD_SECONDS}, while another process reads `GET /self` back to back (in a process of its
 * own, so the flood's own work on this side does not count in its times). The server paces the
 * socket's reads past its budget, so the flood mostly waits in TCP buffers: the figures say how many
 * commands were handed to the socket and how many the server read and answered. Prints the server's
 * resident memory before and at its peak, its CPU time, and the answer times of `GET /self` during
 * the flood and, for comparison on the same machine, during as long a quiet period before it.
 *
 *     node --import tsx bench/src/command-flood.ts [commands]
 */

const COMMANDS = Number(process.argv[2] ?? 240_000);
/** The flood's length: the sender stops after this, whether or not the server took every command. */
const FLOOD_SECONDS = 60;
/** A VIEW_DASH user who may operate outputs. */
const OPERATOR = 'ops@fieldlink.test';
/** Messages handed to the socket between checks of its unsent bytes. */
const BATCH = 1000;
/** The quiet period before the flood, for `GET /self`'s answer times on this machine without it. */
const QUIET_SECONDS = 30;

/** Calls `GET /self` back to back until its standard input ends, then prints the answer times (JSON). */
const PROBER = `
  const times = [];
  let running = true;
  process.stdin.on('end', () => (running = false)).resume();
  while (running) {
    const started = performance.now();
    const response = await fetch(process.env.SELF_URL, { headers: { authorization: process.env.TOKEN } });
    await response.arrayBuffer();
    if (!response.ok) throw new Error('GET /self answered ' + response.status);
    times.push(performance.now() - started);
  }
  console.log(JSON.stringify(times));
`;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fieldlink-flood-'));
const mqttPort = await freePort();
const server = await startInstance({
  DATABASE_URL: path.join(dir, 'fieldlink.db'),
  MQTT_PORT: String(mqttPort),
  FIELDLINK_DEMO_HISTORY_DAYS: '1',
});
try {
  const [device] = await provision(server, 1, 'Flooded device');
  const [client] = await connectDevices(`mqtt://127.0.0.1:${mqttPort}`, [device!]);
  // Online and subscribed, but it never answers: every command waits for its timeout.
  await client!.subscribeAsync(deviceDownTopic(device!.thingName), { qos: 1 });
  const token = await signIn(server, OPERATOR);
  const self = async () => {
    const started = performance.now();
    const response = await fetch(`${server.url}/api/v1/self`, { headers: { authorization: token } });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`GET /self answered ${response.status}`);
    return performance.now() - started;
  };
  const probe = () => {
    const prober = spawn(process.execPath, ['--input-type=module', '-e', PROBER], {
      env: { ...process.env, SELF_URL: `${server.url}/api/v1/self`, TOKEN: token },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    let output = '';
    prober.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const done = new Promise((resolve) => prober.once('close', resolve));
    return async () => {
      prober.stdin.end();
      await done;
      return (JSON.parse(output) as number[]).sort((a, b) => a - b);
    };
  };
  for (let i = 0; i < 50; i += 1) await self();
  await sleep(2000);
  const rssBefore = processUsage(server.pid).rssBytes;
  const quiet = probe();
  await sleep(QUIET_SECONDS * 1000);
  const quietTimes = await quiet();

  const socket = new WebSocket(`${server.url.replace('http', 'ws')}${REALTIME_PATH}`, [REALTIME_PROTOCOL, token]);
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  const replies = { ok: 0, refused: 0, other: 0 };
  let firstRefusal = '';
  socket.on('message', (data) => {
    const action = JSON.parse(data.toString()) as { type: string; ok?: boolean; error?: string };
    if (action.type !== 'server/reply') return;
    if (action.ok) replies.ok += 1;
    else if (/at most/.test(action.error ?? '')) {
      replies.refused += 1;
      firstRefusal ||= action.error!;
    } else replies.other += 1;
  });
  let closed = '';
  socket.on('close', (code, reason) => (closed = `${code} ${reason.toString()}`));

  let peakRss = rssBefore;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, processUsage(server.pid).rssBytes)), 100);

  const cpuBefore = processUsage(server.pid).cpuSeconds;
  const stopProbe = probe();
  const started = performance.now();
  const floodEnd = started + FLOOD_SECONDS * 1000;
  let sent = 0;
  while (sent < COMMANDS && !closed && performance.now() < floodEnd) {
    for (const end = Math.min(COMMANDS, sent + BATCH); sent < end; sent += 1) {
      socket.send(
        JSON.stringify({
          type: 'server/writeChannel',
          id: `f${sent}`,
          thingName: device!.thingName,
          code: 'sp1',
          value: 1,
        }),
      );
    }
    while (socket.bufferedAmount > 1024 * 1024 && performance.now() < floodEnd) await sleep(5);
  }
  // The commands the server read by now are answered: refused at once, or timed out after 10 s.
  while (performance.now() < floodEnd) await sleep(50);
  const floodSeconds = (performance.now() - started) / 1000;
  const serverCpu = processUsage(server.pid).cpuSeconds - cpuBefore;
  const sorted = await stopProbe();
  clearInterval(sampler);
  socket.close();
  await client!.endAsync(true);

  const times = (label: string, calls: readonly number[]) =>
    `GET /self ${label}: ${calls.length} calls, p50 ${percentile(calls, 50).toFixed(1)} ms, ` +
    `p99 ${percentile(calls, 99).toFixed(1)} ms, max ${calls.at(-1)!.toFixed(1)} ms`;
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
  console.log(
    [
      `commands handed to one socket: ${sent} of ${COMMANDS} in ${floodSeconds.toFixed(1)} s` +
        (closed ? ` (socket closed: ${closed})` : ''),
      `replies in that time: ${replies.refused} refused at once, ${replies.other} other errors (timeouts), ` +
        `${replies.ok} ok; the rest waited unread (${socket.bufferedAmount} bytes in this side's buffer)`,
      `first refusal: ${firstRefusal}`,
      `server RSS ${mb(rssBefore)} before, ${mb(peakRss)} at peak: +${mb(peakRss - rssBefore)}`,
      `server CPU during the flood: ${serverCpu.toFixed(1)} s (${((serverCpu / floodSeconds) * 100).toFixed(0)} % of one core)`,
      times(`before the flood (${QUIET_SECONDS} s quiet)`, quietTimes),
      times('during the flood', sorted),
      `machine load average at the end: ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores`,
    ].join('\n'),
  );
  if (closed) console.log(`server log (last lines):\n${server.output().split('\n').slice(-10).join('\n')}`);
} finally {
  await server.kill('SIGTERM');
  fs.rmSync(dir, { recursive: true, force: true });
}
