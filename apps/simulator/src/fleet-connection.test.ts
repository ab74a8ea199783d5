import { DeviceFrame, type ConfigFrame, type LogFrame } from '@fieldlink/api/device-frames';
import { Value } from '@sinclair/typebox/value';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startFleet, type Fleet, type FleetOptions } from './fleet';
import { FrameRecorder } from './testing/frame-recorder';
import { startTestBroker, type TestBroker } from './testing/test-broker';

const THING = 'sim-conn-01';
const credentials = new Map([
  [THING, 'conn-secret'],
  ['observer', 'observer-secret'],
]);

let broker: TestBroker;
let recorder: FrameRecorder;
let fleet: Fleet | undefined;

function start(overrides: Partial<FleetOptions> = {}): Promise<Fleet> {
  return startFleet({
    brokerUrl: broker.url,
    devices: [{ thingName: THING, password: 'conn-secret', kind: 'sprayer' }],
    logIntervalSeconds: 0.1,
    reconnectPeriodMs: 100,
    ...overrides,
  });
}

beforeAll(async () => {
  broker = await startTestBroker(credentials);
  recorder = await FrameRecorder.connect(broker.url, 'observer', 'observer-secret');
});

afterEach(async () => {
  await fleet?.stop();
  fleet = undefined;
});

afterAll(async () => {
  await recorder?.close();
  await broker?.close();
});

describe('device connection', () => {
  it('starts without hanging when its credentials are refused, and stays offline', async () => {
    // A start timeout far past the test's own (30 s): only the refusal can end the start in time.
    fleet = await start({
      devices: [{ thingName: THING, password: 'wrong', kind: 'generic' }],
      startTimeoutMs: 600_000,
    });
    expect(fleet.devices[0]?.connected).toBe(false);
    expect(fleet.stats().connected).toBe(0);
  });

  it('logs the new value right after a relay write, not only on its log clock', async () => {
    fleet = await start({ logIntervalSeconds: 60 });
    const from = recorder.frames.length;
    await recorder.send(THING, {
      v: 4,
      id: 'relay-1',
      exp: Date.now() + 60_000,
      cmd: 'writeChannel',
      code: 'do2',
      value: 1,
    });
    const { index } = await recorder.waitForReply(THING, 'relay-1', from);
    const logIndex = await recorder.waitFor(
      (recorded) => recorded.thingName === THING && recorded.frame.type === 'log',
      {
        fromIndex: index,
        timeoutMs: 1_000,
      },
    );
    expect((recorder.frames[logIndex]?.frame as LogFrame).values.do2).toBe(1);
  });

  it('leaves its will (conn false, no time) when the connection drops, then reconnects and opens again', async () => {
    const opened = recorder.frames.length;
    fleet = await start();
    // Drop it only once its opening frames have reached the observer, so none are still in flight.
    const from =
      (await recorder.waitFor((recorded) => recorded.thingName === THING && recorded.frame.type === 'log', {
        fromIndex: opened,
      })) + 1;
    broker.dropClient(THING);

    const will = await recorder.waitFor(
      (recorded) => recorded.thingName === THING && recorded.frame.type === 'conn' && !recorded.frame.connected,
      { fromIndex: from },
    );
    expect(recorder.frames[will]?.frame).toEqual({ v: 4, type: 'conn', connected: false });
    const back = await recorder.waitFor(
      (recorded) => recorded.thingName === THING && recorded.frame.type === 'conn' && recorded.frame.connected,
      { fromIndex: will },
    );
    await recorder.waitFor((recorded) => recorded.thingName === THING && recorded.frame.type === 'config', {
      fromIndex: back,
    });
    expect(fleet.stats().connects).toBe(2);
  });

  it('pads load-test frames to the largest valid log frame', async () => {
    const from = recorder.frames.length;
    fleet = await start({ valuesPerFrame: 256 });
    const logIndex = await recorder.waitFor(
      (recorded) => recorded.thingName === THING && recorded.frame.type === 'log',
      {
        fromIndex: from,
      },
    );
    const log = recorder.frames[logIndex]?.frame as LogFrame;
    expect(Object.keys(log.values)).toHaveLength(256);
    expect(Value.Check(DeviceFrame, log)).toBe(true);
    const config = recorder.framesOf(THING, from).find((frame): frame is ConfigFrame => frame.type === 'config');
    expect(config?.channels).toHaveLength(256);
    expect(Value.Check(DeviceFrame, config)).toBe(true);
  });

  it('reconnects by itself after a broker restart', async () => {
    fleet = await start();
    const { port } = broker;
    await broker.close();
    await vi.waitFor(() => expect(fleet?.devices[0]?.connected).toBe(false), { timeout: 5_000 });

    broker = await startTestBroker(credentials, { port });
    await vi.waitFor(() => expect(fleet?.devices[0]?.connected).toBe(true), { timeout: 5_000 });
    expect(fleet.stats().connects).toBe(2);
    // The observer reconnects too; logs flow again.
    const from = recorder.frames.length;
    await recorder.waitFor((recorded) => recorded.thingName === THING && recorded.frame.type === 'log', {
      fromIndex: from,
    });
  });
});
