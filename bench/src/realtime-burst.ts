import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { WebSocketServer } from 'ws';
import type { ServerAction } from '@fieldlink/api/realtime';
import { isTask, rendererMainEvents, startTrace, type TraceEvent } from './chromium-trace';

/**
 * A subscription's burst in Chromium: `node --import tsx bench/src/realtime-burst.ts [runs] [devices]`.
 * A page (apps/web/bench/realtime-burst-page.tsx, bundled here with esbuild) opens the console's
 * real-time connection and shows 1,000 devices' live state through the console's hooks; it watches
 * them all at once, and this socket answers each `server/subscribeDevices` (500 devices a request,
 * as the console sends them) as the hub does: each device's connection state, config, alarm bits and
 * health, then the reply. Measured per run, on a fresh page: from the watch until every device's
 * state is in the store and drawn, the store's changes and the renders in that time, and every task
 * of the page's main thread from a Chromium trace (`RunTask` of `CrRendererMain`, wall and CPU).
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
/** The console whose code the page runs (another checkout's, to compare; the page file is this one's). */
const WEB_ROOT = process.env.BURST_WEB_ROOT ?? path.join(ROOT, 'apps/web');
const PAGE_SOURCE = path.join(ROOT, 'apps/web/bench/realtime-burst-page.tsx');
const RUNS = Number(process.argv[2] ?? 3);
const DEVICES = Number(process.argv[3] ?? 1000);

/** What the hub sends for a device it starts watching (`deviceStateActions`), four actions. */
function stateActions(thingName: string, index: number): ServerAction[] {
  return [
    {
      type: 'server/connectionState',
      thingName,
      isConnected: index % 10 !== 0,
      lastConnection: 1_764_000_000_000,
      lastDisconnection: index % 10 !== 0 ? null : 1_764_000_100_000,
    },
    {
      type: 'server/deviceConfig',
      thingName,
      config: { subtype: 'device', fw: '2.4.1', model: 'FL-200', uploadInterval: 60, logInterval: 300 },
    },
    { type: 'server/alarms', thingName, status: { sp: index % 7 } },
    { type: 'server/health', thingName, health: { t: 1_764_000_000_000, signal: -70 - (index % 20), resets: 2 } },
  ];
}

function bundlePage(): string {
  const out = path.join(os.tmpdir(), `realtime-burst-${process.pid}.js`);
  const entry = path.join(WEB_ROOT, 'bench/realtime-burst-page.tsx');
  if (entry !== PAGE_SOURCE) {
    fs.mkdirSync(path.dirname(entry), { recursive: true });
    fs.copyFileSync(PAGE_SOURCE, entry);
  }
  execFileSync(
    path.join(ROOT, 'node_modules/.bin/esbuild'),
    [
      entry,
      '--bundle',
      '--format=esm',
      '--minify',
      '--jsx=automatic',
      // React's production build with the Profiler on, so the page can time its renders.
      '--alias:react-dom/client=react-dom/profiling',
      '--define:process.env.NODE_ENV="production"',
      '--define:import.meta.env={"DEV":false,"PROD":true}',
      `--outfile=${out}`,
      '--log-level=warning',
    ],
    { cwd: WEB_ROOT, stdio: 'inherit' },
  );
  return fs.readFileSync(out, 'utf8');
}

async function serve(script: string): Promise<{ url: string; close: () => Promise<void> }> {
  const html =
    '<!doctype html><html><body><div id="root"></div><script type="module" src="/page.js"></script></body></html>';
  const server = http.createServer((request, response) => {
    const isScript = request.url?.startsWith('/page.js');
    response.writeHead(200, { 'content-type': isScript ? 'text/javascript' : 'text/html' });
    response.end(isScript ? script : html);
  });
  const sockets = new WebSocketServer({ server, handleProtocols: (protocols) => [...protocols][0] ?? false });
  sockets.on('connection', (socket) => {
    socket.on('message', (data) => {
      const request = JSON.parse(String(data)) as { id: string; type: string; thingNames?: string[] };
      if (request.type === 'server/subscribeDevices') {
        request.thingNames!.forEach((thingName) => {
          const index = Number(thingName.slice(-4));
          for (const action of stateActions(thingName, index)) socket.send(JSON.stringify(action));
        });
      }
      socket.send(JSON.stringify({ type: 'server/reply', id: request.id, ok: true }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        sockets.close();
        server.close(() => resolve());
      }),
  };
}

/** A task of the page's main thread (ms, wall and CPU), and whether it ran animation frame callbacks. */
interface MainTask {
  ms: number;
  cpuMs: number;
  frame: boolean;
}

/** The main thread's tasks in the trace. */
function mainThreadTasks(events: readonly TraceEvent[]): MainTask[] {
  const onMain = rendererMainEvents(events);
  const frameStarts = onMain.filter((event) => event.name === 'FireAnimationFrame').map((event) => event.ts);
  return onMain.filter(isTask).map((event) => ({
    ms: (event.dur ?? 0) / 1000,
    cpuMs: (event.tdur ?? event.dur ?? 0) / 1000,
    frame: frameStarts.some((ts) => ts >= event.ts && ts <= event.ts + (event.dur ?? 0)),
  }));
}

interface BurstResult {
  ms: number;
  storeMs: number;
  renderMs: number;
  storeChanges: number;
  bannerRenders: number;
  rowRenders: number;
}

async function main(): Promise<void> {
  const site = await serve(bundlePage());
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  try {
    console.log(`${DEVICES} devices, ${DEVICES * 4} state actions; load ${os.loadavg()[0]!.toFixed(2)}`);
    console.log(
      'run | watch to drawn ms | store changes | in store changes ms | React render ms | banner renders | tasks | main-thread ms (cpu) | longest task ms (cpu) | tasks >= 50 ms',
    );
    for (let run = 1; run <= RUNS; run += 1) {
      const page = await (await browser.newContext()).newPage();
      page.on('pageerror', (error) => console.error(error));
      await page.goto(`${site.url}/?devices=${DEVICES}`);
      await page.waitForFunction(() => 'burst' in window);
      await page.evaluate(() => (window as unknown as { burst: { ready: Promise<void> } }).burst.ready);
      const cdp = await page.context().newCDPSession(page);
      const endTrace = await startTrace(cdp);
      // The console ignores an action the contract refuses: then the states never all arrive.
      let timer: ReturnType<typeof setTimeout> | undefined;
      const result = await Promise.race([
        page.evaluate(() => (window as unknown as { burst: { run: () => Promise<BurstResult> } }).burst.run()),
        new Promise<never>((_resolve, reject) => {
          timer = setTimeout(() => reject(new Error('The states did not all arrive within 120 s.')), 120_000);
        }),
      ]).finally(() => clearTimeout(timer));
      const all = mainThreadTasks(await endTrace());
      const tasks = all.filter((task) => task.ms >= 1);
      if (process.env.BURST_DETAIL) {
        const cpu = all.map((task) => task.cpuMs).sort((a, b) => b - a);
        const frames = all.filter((task) => task.frame);
        console.log(
          `  animation frame tasks ${frames.length}, cpu ${frames.reduce((total, task) => total + task.cpuMs, 0).toFixed(0)} ms; other tasks cpu ${all
            .filter((task) => !task.frame)
            .reduce((total, task) => total + task.cpuMs, 0)
            .toFixed(0)} ms`,
        );
        console.log(
          `  all tasks ${all.length}, cpu ${cpu.reduce((a, b) => a + b, 0).toFixed(0)} ms; top cpu ${cpu
            .slice(0, 12)
            .map((ms) => ms.toFixed(1))
            .join(' ')}`,
        );
      }
      const sum = (key: 'ms' | 'cpuMs') => tasks.reduce((total, task) => total + task[key], 0);
      const longest = tasks.reduce((top, task) => (task.ms > top.ms ? task : top), { ms: 0, cpuMs: 0, frame: false });
      console.log(
        [
          run,
          result.ms.toFixed(0),
          result.storeChanges,
          result.storeMs.toFixed(0),
          result.renderMs.toFixed(0),
          result.bannerRenders,
          tasks.length,
          `${sum('ms').toFixed(0)} (${sum('cpuMs').toFixed(0)})`,
          `${longest.ms.toFixed(0)} (${longest.cpuMs.toFixed(0)})`,
          tasks.filter((task) => task.ms >= 50).length,
        ].join(' | '),
      );
      await page.context().close();
    }
    console.log(`load ${os.loadavg()[0]!.toFixed(2)}`);
  } finally {
    await browser.close();
    await site.close();
  }
}

await main();
