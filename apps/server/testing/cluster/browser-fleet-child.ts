/**
 * The browsers of the rolling-upgrade test, in a process of their own (browser-fleet.ts starts it):
 * each holds the real-time channel through HAProxy and reconnects as the console does, and times its
 * outages on this process's event loop, which runs nothing else. In the test's own process the same
 * times also counted the devices, the readers and the poller beside them (docs/decisions.md, "Issue
 * 37 item 7: the rolling upgrade's reconnects timed in a process of their own").
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { TestSocket } from '../test-socket';
import type { BrowserOutage, FailedAttempt, FleetMessage, FleetRequest } from './browser-fleet';

/** The console's reconnect delays at their longest (apps/web realtime backoff: 1 s, doubling, 30 s at most). */
const reconnectDelay = (attempt: number) => Math.min(30_000, 1000 * 2 ** (attempt - 1));

/** A browser holding the real-time channel through HAProxy, reconnecting as the console does. */
class Browser {
  socket: TestSocket | null = null;
  readonly outages: BrowserOutage[] = [];
  readonly failedAttempts: FailedAttempt[] = [];
  private closed = false;

  constructor(
    private readonly url: string,
    private readonly token: string,
    private readonly thingName: string,
  ) {}

  async connect(attempt = 1, downSince?: number): Promise<void> {
    let socket: TestSocket | null = null;
    const tried = Date.now();
    try {
      socket = await TestSocket.open(this.url, this.token);
      const open = Date.now();
      const reply = await socket.request({ type: 'server/subscribeDevices', thingNames: [this.thingName] }, 30_000);
      if (!reply.ok) throw new Error('subscription refused');
      this.socket = socket;
      if (downSince !== undefined) {
        this.outages.push({
          at: downSince,
          open: open - downSince,
          subscribed: Date.now() - downSince,
          attempts: attempt,
          lastAttempt: open - tried,
        });
      }
      socket.socket.once('close', () => {
        if (this.closed) return;
        const since = Date.now();
        setTimeout(() => void this.connect(1, since), reconnectDelay(1));
      });
    } catch (error) {
      socket?.socket.terminate();
      if (downSince !== undefined) {
        this.failedAttempts.push({ at: downSince, ms: Date.now() - tried, why: String(error).slice(0, 80) });
      }
      if (this.closed) return;
      setTimeout(() => void this.connect(attempt + 1, downSince ?? Date.now()), reconnectDelay(attempt + 1));
    }
  }

  isOpen(): boolean {
    return this.socket !== null && this.socket.socket.readyState === this.socket.socket.OPEN;
  }

  close(): void {
    this.closed = true;
    this.socket?.socket.close();
  }
}

const { url, token, thingNames } = JSON.parse(process.env.FIELDLINK_BROWSER_FLEET!) as {
  url: string;
  token: string;
  thingNames: string[];
};
const browsers = thingNames.map((thingName) => new Browser(url, token, thingName));
// How late this loop ran what was due: the part of the times above that is this process's own.
const loopDelay = monitorEventLoopDelay({ resolution: 10 });
loopDelay.enable();
const send = (message: FleetMessage) => process.send!(message);

process.on('message', (request: FleetRequest) => {
  if (request.type === 'report') {
    send({
      type: 'report',
      open: browsers.filter((browser) => browser.isOpen()).length,
      outages: browsers.flatMap((browser) => browser.outages),
      failedAttempts: browsers.flatMap((browser) => browser.failedAttempts),
      loopDelayMs: { p99: loopDelay.percentile(99) / 1e6, max: loopDelay.max / 1e6 },
    });
  } else {
    for (const browser of browsers) browser.close();
    process.exit(0);
  }
});
await Promise.all(browsers.map((browser) => browser.connect()));
send({ type: 'started' });
