import { DeviceFrame, type ConfigFrame, type OtaFrame } from '@fieldlink/api/device-frames';
import { Value } from '@sinclair/typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFleet, type Fleet } from './fleet';
import { FrameRecorder } from './testing/frame-recorder';
import { startTestBroker, type TestBroker } from './testing/test-broker';

const UPDATING = 'sim-ota-01';
const credentials = new Map([
  [UPDATING, 'ota-secret'],
  ['observer', 'observer-secret'],
]);

let broker: TestBroker;
let recorder: FrameRecorder;
let succeeding: Fleet;
let failing: Fleet;

beforeAll(async () => {
  broker = await startTestBroker(new Map([...credentials, ['sim-ota-02', 'ota-secret-2']]));
  recorder = await FrameRecorder.connect(broker.url, 'observer', 'observer-secret');
  const common = {
    brokerUrl: broker.url,
    logIntervalSeconds: 5,
    healthIntervalSeconds: 60,
    otaStepMs: 30,
    reconnectPeriodMs: 100,
  };
  succeeding = await startFleet({
    ...common,
    devices: [{ thingName: UPDATING, password: 'ota-secret', kind: 'generic' }],
    otaFailureRate: 0,
  });
  failing = await startFleet({
    ...common,
    devices: [{ thingName: 'sim-ota-02', password: 'ota-secret-2', kind: 'generic' }],
    otaFailureRate: 1,
  });
});

afterAll(async () => {
  await succeeding?.stop();
  await failing?.stop();
  await recorder?.close();
  await broker?.close();
});

const command = (updateId: string, id: string) => ({
  v: 4,
  id,
  exp: Date.now() + 60_000,
  cmd: 'otaUpdate',
  updateId,
  updateCommand: 'firmware 5.1.0',
});

describe('a simulated device updating over the air', () => {
  it('accepts the update, reports progress, reboots and comes back with the new firmware', async () => {
    const from = recorder.frames.length;
    await recorder.send(UPDATING, command('update-1', 'ota-cmd-1'));
    const { frame: reply } = await recorder.waitForReply(UPDATING, 'ota-cmd-1', from);
    expect(reply).toMatchObject({ result: 'OK' });
    await recorder.waitFor(
      (recorded) =>
        recorded.thingName === UPDATING && recorded.frame.type === 'ota' && recorded.frame.state === 'succeeded',
      { fromIndex: from, timeoutMs: 10_000 },
    );
    const frames = recorder.framesOf(UPDATING, from);
    for (const frame of frames) expect(Value.Errors(DeviceFrame, frame).First()?.message).toBeUndefined();
    const ota = frames.filter((frame): frame is OtaFrame => frame.type === 'ota');
    expect(ota.map((frame) => [frame.state, frame.percent])).toEqual([
      ['downloading', 0],
      ['downloading', 20],
      ['downloading', 40],
      ['downloading', 60],
      ['downloading', 80],
      ['downloading', 100],
      ['installing', undefined],
      ['rebooting', undefined],
      ['succeeded', undefined],
    ]);
    expect(ota.every((frame) => frame.updateId === 'update-1')).toBe(true);
    expect(ota.at(-1)).toMatchObject({ fw: '5.1.0' });
    // The reboot dropped the connection (the will says so), then it reconnected with the new firmware.
    const rebooting = frames.findIndex((frame) => frame.type === 'ota' && frame.state === 'rebooting');
    const after = frames.slice(rebooting);
    expect(after.findIndex((frame) => frame.type === 'conn' && !frame.connected)).toBeGreaterThan(0);
    const config = after.find((frame): frame is ConfigFrame => frame.type === 'config' && frame.subtype === 'device');
    expect(config?.fw).toBe('5.1.0');
  });

  it('refuses a second update while one runs', async () => {
    const from = recorder.frames.length;
    await recorder.send(UPDATING, command('update-2', 'ota-cmd-2'));
    await recorder.send(UPDATING, command('update-3', 'ota-cmd-3'));
    expect((await recorder.waitForReply(UPDATING, 'ota-cmd-2', from)).frame).toMatchObject({ result: 'OK' });
    expect((await recorder.waitForReply(UPDATING, 'ota-cmd-3', from)).frame).toMatchObject({ result: 'FAIL' });
    await recorder.waitFor(
      (recorded) =>
        recorded.thingName === UPDATING && recorded.frame.type === 'ota' && recorded.frame.state === 'succeeded',
      { fromIndex: from, timeoutMs: 10_000 },
    );
  });

  it('fails some updates part-way through the download', async () => {
    const from = recorder.frames.length;
    await recorder.send('sim-ota-02', command('update-9', 'ota-cmd-9'));
    const index = await recorder.waitFor(
      (recorded) =>
        recorded.thingName === 'sim-ota-02' && recorded.frame.type === 'ota' && recorded.frame.state === 'failed',
      { fromIndex: from, timeoutMs: 10_000 },
    );
    expect(recorder.frames[index]!.frame).toMatchObject({ updateId: 'update-9', error: 'Image checksum mismatch' });
    const config = recorder.framesOf('sim-ota-02', from).filter((frame) => frame.type === 'config');
    expect(config).toEqual([]);
  });
});
