import { describe, expect, it } from 'vitest';
import type { ServerAction } from '@fieldlink/api/realtime';
import { DemoFleetSimulation } from './demo-fleet-simulation';

const HOUR = 3_600_000;
const DEVICES = [
  { thingName: 'CTL01_DEMO', kind: 'generic' as const },
  { thingName: 'FV01_DEMO', kind: 'brewTank' as const },
];

function fleet(now = Date.now()) {
  return { simulation: new DemoFleetSimulation(DEVICES, now - 6 * HOUR), now };
}

const latestOf = (actions: readonly ServerAction[]) =>
  actions.filter((action) => action.type === 'server/demoLatestValue');

describe('the demo fleet in the worker', () => {
  it('generates each device’s history up to now, one sample every 5 minutes', () => {
    const { simulation, now } = fleet();
    const logs = simulation.logs({
      kind: 'logs',
      thingName: 'CTL01_DEMO',
      codes: ['c1'],
      start: now - 6 * HOUR,
      end: now,
      binCount: 1000,
    });
    const log = logs.c1!;
    expect(log.kind).toBe('raw');
    if (log.kind !== 'raw') return;
    expect(log.t.length).toBeGreaterThanOrEqual(70);
    expect(log.t.at(-1)! - log.t[0]!).toBeGreaterThan(5 * HOUR);
    expect(log.t[1]! - log.t[0]!).toBe(5 * 60_000);
  });

  it('sends demo latest values only for the devices the console subscribed to, and only those that moved', () => {
    const { simulation, now } = fleet();
    expect(simulation.tick(now + 1000)).toEqual([]);
    const [reply] = simulation.request({ type: 'server/subscribeDevices', id: '1', thingNames: ['CTL01_DEMO'] }, now);
    expect(reply).toEqual({ type: 'server/reply', id: '1', ok: true });
    // The first tick is a log: every channel is reported.
    const ticked = simulation.tick(now + 60_000);
    // One list per watched device: each reaches the page as a message of its own.
    expect(ticked).toHaveLength(1);
    const logged = latestOf(ticked.flat());
    expect(logged.map((action) => action.code).sort()).toEqual([
      'c1',
      'c2',
      'c3',
      'c4',
      'd1',
      'do1',
      'do2',
      'sp1',
      'sp2',
      't1',
    ]);
    expect(logged.every((action) => action.thingName === 'CTL01_DEMO')).toBe(true);
    // A second later only what moved: a setpoint that nobody changed is not sent again.
    const moved = latestOf(simulation.tick(now + 61_000).flat());
    expect(moved.length).toBeGreaterThan(0);
    expect(moved.some((action) => action.code === 'sp1')).toBe(false);
  });

  it.each([
    ['a setpoint within its range', 'sp1', 23, true],
    ['a setpoint outside its range', 'sp1', 99, false],
    ['an input, which is read-only', 'c1', 5, false],
  ])('answers a write of %s', (_name, code, value, ok) => {
    const { simulation, now } = fleet();
    const actions = simulation.request(
      { type: 'server/writeChannel', id: '7', thingName: 'CTL01_DEMO', code, value },
      now,
    );
    expect(actions[0]).toEqual(
      ok
        ? { type: 'server/reply', id: '7', ok: true, value }
        : { type: 'server/reply', id: '7', ok: false, error: 'Command Failed.' },
    );
    if (ok) {
      expect(actions[1]).toEqual({ type: 'server/setpointStatus', thingName: 'CTL01_DEMO', code, state: 'on', value });
      expect(simulation.snapshots(['CTL01_DEMO'])[0]!.latest[code]!.value).toBe(value);
    }
  });

  it('refuses requests for a device that is not in the demo', () => {
    const { simulation, now } = fleet();
    expect(simulation.request({ type: 'server/readChannel', id: '2', thingName: 'OTHER', code: 'c1' }, now)).toEqual([
      { type: 'server/reply', id: '2', ok: false, error: 'Device not found.' },
    ]);
  });

  it('describes a brewing tank’s batch from its plant model', () => {
    const { simulation, now } = fleet();
    const [tank] = simulation.snapshots(['FV01_DEMO']);
    expect(tank!.tank!.filledAt).toBeLessThan(now);
    expect(tank!.tank!.originalGravity).toBeGreaterThan(1.03);
    expect(simulation.snapshots(['CTL01_DEMO'])[0]!.tank).toBeNull();
  });

  it('follows a smart shelf’s stock through its history as the server’s shelf tracker does', () => {
    const now = Date.now();
    const simulation = new DemoFleetSimulation([{ thingName: 'SHF01_DEMO', kind: 'retailShelf' }], now - 2 * 24 * HOUR);
    const [shelf] = simulation.snapshots(['SHF01_DEMO']);
    expect(Object.keys(shelf!.shelf!.tracks).sort()).toEqual(['c1', 'c2', 'c3', 'c4', 'c5', 'c6']);
    const sold = Object.values(shelf!.shelf!.days).reduce((total, day) => total + day.unitsSold, 0);
    expect(sold).toBeGreaterThan(0);
    expect(shelf!.shelf!.tracks.c1!.count).toBe(shelf!.latest.c1!.value);
    // Issue 36 item 4: its history covers the 90 days of the store's stock chart, not just the fleet's.
    const start = now - 90 * 24 * HOUR;
    const log = simulation.logs({
      kind: 'logs',
      thingName: 'SHF01_DEMO',
      codes: ['c1'],
      start,
      end: now,
      binCount: 90,
    }).c1!;
    expect(log.t.length).toBe(90);
    expect(log.t[0]).toBeLessThan(start + 24 * HOUR);
  });
});
