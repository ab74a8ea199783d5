// A measuring page, not part of the console: bundled by bench/src/realtime-burst.ts. It opens the
// console's real-time connection (realtime-connection.ts, as the console does), shows 1,000 devices'
// live state the way the console's hooks read it, and watches all of them at once.
import { Profiler } from 'react';
import { createRoot } from 'react-dom/client';
import { startRealtime, watchDevices } from '../src/lib/realtime/realtime-connection';
import { realtimeStore } from '../src/lib/realtime/realtime-store';
import {
  useDeviceConfig,
  useDeviceConnection,
  useDeviceHealth,
  useDisconnectedCount,
  useOtaProgress,
} from '../src/lib/realtime/use-realtime';
import { useStore } from '../src/lib/use-store';

interface BurstResult {
  ms: number;
  /** Time in the store's changes: applying the actions and telling the listeners (selectors run). */
  storeMs: number;
  /** React's render time of the commits meanwhile (Profiler's actual duration). */
  renderMs: number;
  storeChanges: number;
  bannerRenders: number;
  rowRenders: number;
}

const params = new URLSearchParams(location.search);
const DEVICES = Number(params.get('devices') ?? 1000);
const things = Array.from({ length: DEVICES }, (_, index) => `BURST-${String(index).padStart(4, '0')}`);
const fleet = things.map((thingName) => ({ thingName, isConnected: true }));
const counts = { banner: 0, rows: 0, storeMs: 0, renderMs: 0 };
const setState = realtimeStore.setState;
realtimeStore.setState = (update) => {
  const started = performance.now();
  setState(update);
  counts.storeMs += performance.now() - started;
};

function Row({ thingName }: { thingName: string }) {
  counts.rows += 1;
  const connection = useDeviceConnection(thingName);
  const config = useDeviceConfig(thingName);
  const health = useDeviceHealth(thingName);
  const ota = useOtaProgress(thingName);
  const sp = useStore(realtimeStore, (s) => s.alarms[thingName]?.sp);
  return (
    <li>
      {thingName} {connection ? (connection.isConnected ? 'Online' : 'Offline') : '?'} {config?.fw ?? ''}{' '}
      {health?.signal ?? ''} {ota?.update.percent ?? ''} {sp ?? ''}
    </li>
  );
}

function Banner() {
  counts.banner += 1;
  const disconnected = useDisconnectedCount(fleet);
  return <p id="banner">{disconnected} devices are disconnected.</p>;
}

function Page() {
  return (
    <>
      <Banner />
      <ul>
        {things.map((thingName) => (
          <Row key={thingName} thingName={thingName} />
        ))}
      </ul>
    </>
  );
}

/** Watches every device and resolves once each one's state is in the store and on screen. */
async function burst(): Promise<BurstResult> {
  let storeChanges = 0;
  const stopCounting = realtimeStore.subscribe(() => (storeChanges += 1));
  const banner0 = counts.banner;
  const rows0 = counts.rows;
  const store0 = counts.storeMs;
  const render0 = counts.renderMs;
  const started = performance.now();
  let stopWaiting = () => {};
  const applied = new Promise<void>((resolve) => {
    stopWaiting = realtimeStore.subscribe(() => {
      if (Object.keys(realtimeStore.getState().health).length >= DEVICES) resolve();
    });
  });
  watchDevices(things);
  await applied;
  stopWaiting();
  // Rendered: React commits a store change in the task that made it, or by the next frame.
  await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  const ms = performance.now() - started;
  stopCounting();
  return {
    ms,
    storeMs: counts.storeMs - store0,
    renderMs: counts.renderMs - render0,
    storeChanges,
    bannerRenders: counts.banner - banner0,
    rowRenders: counts.rows - rows0,
  };
}

async function start(): Promise<void> {
  createRoot(document.getElementById('root')!).render(
    <Profiler id="page" onRender={(_id, _phase, actualMs) => (counts.renderMs += actualMs)}>
      <Page />
    </Profiler>,
  );
  await startRealtime({ token: 'bench-token', canViewDash: true, onUnauthorized: () => {} });
  await new Promise<void>((resolve) => {
    const check = () => realtimeStore.getState().status === 'CONNECTED' && resolve();
    realtimeStore.subscribe(check);
    check();
  });
}

(window as unknown as { burst: { ready: Promise<void>; run: () => Promise<BurstResult> } }).burst = {
  ready: start(),
  run: burst,
};
