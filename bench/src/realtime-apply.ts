import type { ServerAction } from '@fieldlink/api/realtime';
import { applyServerActions, INITIAL_REALTIME_STATE } from '../../apps/web/src/lib/realtime/realtime-store';

/**
 * The store's own cost of a subscription's states, without a page: `node --import tsx
 * bench/src/realtime-apply.ts [runs] [devices]`. 4 actions per device (connection state, config,
 * alarm bits, health) applied one at a time (each a store change copying its slice, as the console
 * did) and as one burst (`applyServerActions`, each slice copied once). CPU time of this process.
 */

const RUNS = Number(process.argv[2] ?? 5);
const DEVICES = Number(process.argv[3] ?? 1000);

function stateActions(): ServerAction[] {
  const actions: ServerAction[] = [];
  for (let index = 0; index < DEVICES; index += 1) {
    const thingName = `BURST-${String(index).padStart(4, '0')}`;
    actions.push(
      { type: 'server/connectionState', thingName, isConnected: true, lastConnection: 1, lastDisconnection: null },
      { type: 'server/deviceConfig', thingName, config: { subtype: 'device', fw: '2.4.1', uploadInterval: 60 } },
      { type: 'server/alarms', thingName, status: { sp: index % 7 } },
      { type: 'server/health', thingName, health: { signal: -70 } },
    );
  }
  return actions;
}

/** CPU ms of `work` (user and system time of this process). */
function cpuMs(work: () => void): number {
  const started = process.cpuUsage();
  work();
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1000;
}

const actions = stateActions();
const now = Date.now();
const oneByOne: number[] = [];
const burst: number[] = [];
for (let run = 0; run < RUNS; run += 1) {
  oneByOne.push(
    cpuMs(() => actions.reduce((state, action) => applyServerActions(state, [action], now), INITIAL_REALTIME_STATE)),
  );
  burst.push(cpuMs(() => applyServerActions(INITIAL_REALTIME_STATE, actions, now)));
}
const list = (values: number[]) => values.map((ms) => ms.toFixed(1)).join(', ');
console.log(`${actions.length} actions of ${DEVICES} devices, CPU ms per run`);
console.log(`one store change each: ${list(oneByOne)}`);
console.log(`one burst:             ${list(burst)}`);
