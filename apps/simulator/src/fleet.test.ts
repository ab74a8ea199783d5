import { DeviceFrame, type ConfigFrame, type LogFrame, type ReplyFrame } from '@fieldlink/api/device-frames';
import { Value } from '@sinclair/typebox/value';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BREW_REGISTERS, vatStatusRegister } from '@fieldlink/domain/brew';
import { BrewTank } from '@fieldlink/simulation/brew-tank';
import { startFleet, type CommandEvent, type Fleet } from './fleet';
import { FrameRecorder } from './testing/frame-recorder';
import { startTestBroker, type TestBroker } from './testing/test-broker';

const GENERIC = 'sim-generic-01';
const BREW = 'sim-brew-01';
/** A brew tank whose clock the test moves two weeks on: the step seals its vat and latches the status bits. */
const CATCHING_UP = 'sim-brew-02';
const credentials = new Map([
  [GENERIC, 'generic-secret'],
  [BREW, 'brew-secret'],
  [CATCHING_UP, 'catching-up-secret'],
  ['observer', 'observer-secret'],
]);

let broker: TestBroker;
let recorder: FrameRecorder;
let fleet: Fleet;
const commandEvents: CommandEvent[] = [];
let commandCounter = 0;

/** A fresh command envelope that expires in a minute. */
function envelope(): { v: 4; id: string; exp: number } {
  commandCounter += 1;
  return { v: 4, id: `cmd-${commandCounter}`, exp: Date.now() + 60_000 };
}

async function command(
  thingName: string,
  body: Record<string, unknown>,
): Promise<{ index: number; reply: ReplyFrame }> {
  const sent = { ...envelope(), ...body };
  const from = recorder.frames.length;
  await recorder.send(thingName, sent);
  const { index, frame } = await recorder.waitForReply(thingName, sent.id, from);
  return { index, reply: frame as ReplyFrame };
}

beforeAll(async () => {
  broker = await startTestBroker(credentials);
  recorder = await FrameRecorder.connect(broker.url, 'observer', 'observer-secret');
  fleet = await startFleet({
    brokerUrl: broker.url,
    devices: [
      { thingName: GENERIC, password: 'generic-secret', kind: 'generic' },
      { thingName: BREW, password: 'brew-secret', kind: 'brewTank', seed: 7 },
      {
        thingName: CATCHING_UP,
        password: 'catching-up-secret',
        kind: 'brewTank',
        model: new BrewTank({ seed: 2, startTimeMs: Date.now() }),
      },
    ],
    logIntervalSeconds: 0.1,
    healthIntervalSeconds: 0.5,
  });
  fleet.onCommand((event) => commandEvents.push(event));
});

afterAll(async () => {
  await fleet?.stop();
  await recorder?.close();
  await broker?.close();
});

describe('a simulated device on the broker', () => {
  it.each([GENERIC, BREW])(
    '%s opens with conn, config and health, then logs, all valid v4 frames',
    async (thingName) => {
      await recorder.waitFor(() => recorder.framesOf(thingName).filter((frame) => frame.type === 'log').length >= 3);
      const frames = recorder.framesOf(thingName);

      for (const frame of frames) expect(Value.Errors(DeviceFrame, frame).First()?.message).toBeUndefined();
      expect(frames.slice(0, 4).map((frame) => frame.type)).toEqual(['conn', 'config', 'health', 'status']);
      expect(frames[0]).toMatchObject({ type: 'conn', connected: true });

      const config = frames[1] as ConfigFrame;
      expect(config.subtype).toBe('device');
      expect(config.hw?.split(':')[0]).toMatch(/^(NIM2|NIM3|ZEN6|ZEN_IOT|ZEN_G3)$/);
      expect(config.logInterval).toBe(0.1);
      expect(config.ports?.[0]).toMatchObject({ portType: 'modem', netType: 'LTE' });
      expect(config.ports?.[0]?.imei).toMatch(/^\d{15}$/);

      const logs = frames.filter((frame): frame is LogFrame => frame.type === 'log');
      const channelCodes = new Set(config.channels?.map((channel) => channel.code));
      for (const log of logs) {
        expect(log.t).toBeGreaterThan(1e12);
        for (const code of Object.keys(log.values)) expect(channelCodes.has(code)).toBe(true);
      }
      expect(fleet.device(thingName)?.connected).toBe(true);
    },
  );

  it('answers a setpoint write with OK and logs the new value at once', async () => {
    const { index, reply } = await command(GENERIC, { cmd: 'writeChannel', code: 'sp1', value: 23.5 });
    expect(reply).toEqual({ v: 4, type: 'reply', id: reply.id, result: 'OK', value: 23.5 });

    const logIndex = await recorder.waitFor(
      (recorded) => recorded.thingName === GENERIC && recorded.frame.type === 'log',
      {
        fromIndex: index,
      },
    );
    expect((recorder.frames[logIndex]?.frame as LogFrame).values.sp1).toBe(23.5);
    expect(fleet.device(GENERIC)?.values().sp1).toBe(23.5);
  });

  it('accepts the hyphenated and short spellings of a channel code', async () => {
    expect((await command(GENERIC, { cmd: 'writeChannel', code: 'sp-1', value: 22 })).reply.result).toBe('OK');
    expect((await command(GENERIC, { cmd: 'readChannel', code: 's1' })).reply.value).toBe(22);
    expect((await command(GENERIC, { cmd: 'writeChannel', code: 'o2', value: 1 })).reply).toMatchObject({
      result: 'OK',
      value: 1,
    });
  });

  it('reads a channel', async () => {
    const { index, reply } = await command(BREW, { cmd: 'readChannel', code: 'c1' });
    expect(reply.result).toBe('OK');
    // The model moves only on a log tick, and every tick is logged: the read matches the last log.
    const lastLog = recorder
      .framesOf(BREW)
      .slice(0, recorder.framesOf(BREW, 0).length - recorder.framesOf(BREW, index).length)
      .filter((frame): frame is LogFrame => frame.type === 'log')
      .at(-1);
    expect(reply.value).toBe(lastLog?.values.c1);
  });

  it.each([
    ['an unknown code', { cmd: 'readChannel', code: 'c99' }],
    ['a write to an unknown code', { cmd: 'writeChannel', code: 'sp9', value: 1 }],
    ['a write to an input', { cmd: 'writeChannel', code: 'c1', value: 1 }],
    ['a setpoint out of range', { cmd: 'writeChannel', code: 'sp1', value: 500 }],
    ['a relay value other than 0 or 1', { cmd: 'writeChannel', code: 'do1', value: 2 }],
    ['an unknown register', { cmd: 'readRegister', register: 9999 }],
    ['an unknown command', { cmd: 'selfDestruct' }],
  ])('answers FAIL to %s', async (_, body) => {
    const { reply } = await command(GENERIC, body);
    expect(reply).toEqual({ v: 4, type: 'reply', id: reply.id, result: 'FAIL' });
  });

  it('ignores an expired command', async () => {
    const expired = { v: 4, id: 'expired-1', exp: Date.now() - 1_000, cmd: 'writeChannel', code: 'sp2', value: 4 };
    const from = recorder.frames.length;
    await recorder.send(GENERIC, expired);
    // Commands are handled in order: once a later one is answered, the expired one has been seen.
    await command(GENERIC, { cmd: 'readChannel', code: 'sp2' });

    const replies = recorder.framesOf(GENERIC, from).filter((frame) => frame.type === 'reply');
    expect(replies.map((frame) => (frame as ReplyFrame).id)).not.toContain('expired-1');
    expect(fleet.device(GENERIC)?.values().sp2).not.toBe(4);
    expect(commandEvents.map((event) => event.command.id)).not.toContain('expired-1');
  });

  it('runs a repeated command id once and repeats its first answer', async () => {
    const first = { v: 4, id: 'repeat-1', exp: Date.now() + 60_000, cmd: 'writeChannel', code: 'sp1', value: 19 };
    const from = recorder.frames.length;
    await recorder.send(GENERIC, first);
    await recorder.send(GENERIC, { ...first, value: 26 });
    const { reply } = await command(GENERIC, { cmd: 'readChannel', code: 'sp1' });

    expect(reply.value).toBe(19);
    const repeats = recorder
      .framesOf(GENERIC, from)
      .filter((frame): frame is ReplyFrame => frame.type === 'reply' && frame.id === 'repeat-1');
    expect(repeats).toHaveLength(2);
    expect(repeats.every((frame) => frame.result === 'OK' && frame.value === 19)).toBe(true);
    expect(commandEvents.filter((event) => event.command.id === 'repeat-1')).toHaveLength(1);
  });

  it('writes and reads 16-bit registers and sends its config again', async () => {
    const write = await command(GENERIC, { cmd: 'writeRegister', register: 100, value: 8 });
    expect(write.reply).toMatchObject({ result: 'OK', value: 8 });
    const configIndex = await recorder.waitFor(
      (recorded) => recorded.thingName === GENERIC && recorded.frame.type === 'config',
      { fromIndex: write.index },
    );
    expect((recorder.frames[configIndex]?.frame as ConfigFrame).registers?.['100']).toBe(8);
    expect((await command(GENERIC, { cmd: 'readRegister', register: 100 })).reply.value).toBe(8);
    expect((await command(GENERIC, { cmd: 'writeRegister', register: 100, value: -1 })).reply.value).toBe(65535);
    await command(GENERIC, { cmd: 'writeRegister', register: 100, value: 5 });
  });

  it('sends its config again when it changes a status register by itself (a vat status it latches)', async () => {
    // Online and logging first: a step taken before the connection would go out in the connect's config.
    await recorder.waitFor((recorded) => recorded.thingName === CATCHING_UP && recorded.frame.type === 'log');
    const from = recorder.frames.length;
    // Two weeks of fermentation at once: the vat seals (bit 6) and the status word moves.
    fleet.device(CATCHING_UP)!.advanceClockTo(Date.now() + 14 * 86_400_000);
    const logIndex = await recorder.waitFor(
      (recorded) => recorded.thingName === CATCHING_UP && recorded.frame.type === 'log',
      { fromIndex: from },
    );
    const configIndex = await recorder.waitFor(
      (recorded) => recorded.thingName === CATCHING_UP && recorded.frame.type === 'config',
      { fromIndex: logIndex },
    );
    const registers = (recorder.frames[configIndex]?.frame as ConfigFrame).registers!;
    const status = registers[String(vatStatusRegister(registers[String(BREW_REGISTERS.VAT_NUMBER)]!))];
    expect(status).toBeDefined();
    // No command asked for it: only the model's own change did.
    expect(commandEvents.filter((event) => event.thingName === CATCHING_UP)).toEqual([]);
  });

  it('re-publishes config and health on refreshMetadata', async () => {
    const { index, reply } = await command(BREW, { cmd: 'refreshMetadata' });
    expect(reply.result).toBe('OK');
    await recorder.waitFor((recorded) => recorded.thingName === BREW && recorded.frame.type === 'config', {
      fromIndex: index,
    });
    await recorder.waitFor((recorded) => recorded.thingName === BREW && recorded.frame.type === 'health', {
      fromIndex: index,
    });
  });

  it('flashes its LED', async () => {
    expect((await command(BREW, { cmd: 'system', command: 'FLASH LED' })).reply.result).toBe('OK');
  });

  it('stores a time zone and reports it in its config', async () => {
    const { index, reply } = await command(BREW, {
      cmd: 'timeDate',
      tzName: 'Australia/Melbourne',
      tzRule: 'AEST-10AEDT,M10.1.0,M4.1.0/3',
    });
    expect(reply.result).toBe('OK');
    const configIndex = await recorder.waitFor(
      (recorded) => recorded.thingName === BREW && recorded.frame.type === 'config',
      { fromIndex: index },
    );
    expect((recorder.frames[configIndex]?.frame as ConfigFrame).timeDate).toEqual({
      tzName: 'Australia/Melbourne',
      tzRule: 'AEST-10AEDT,M10.1.0,M4.1.0/3',
    });
  });

  it('applies channel settings and intervals, reports them in its config, and logs at the new interval', async () => {
    const { index, reply } = await command(GENERIC, {
      cmd: 'writeConfig',
      channels: [{ code: 'c1', name: 'Supply air', upload: false, alarm: true }],
      uploadInterval: 5,
      logInterval: 1,
    });
    expect(reply.result).toBe('OK');
    const configIndex = await recorder.waitFor(
      (recorded) => recorded.thingName === GENERIC && recorded.frame.type === 'config',
      { fromIndex: index },
    );
    const config = recorder.frames[configIndex]?.frame as ConfigFrame;
    expect(config).toMatchObject({ uploadInterval: 5, logInterval: 1, expandedIoMax: 0 });
    expect(config.channels?.find((channel) => channel.code === 'c1')).toMatchObject({
      name: 'Supply air',
      upload: false,
      alarm: true,
    });
    // Logging slows from every 0.1 s to every second: the device's own times of its logs after the change
    // lie a second apart or more (0.1 s before). The first one after a change may come sooner (the log
    // clock restarts at a fraction of the interval), so the gaps counted are those after it.
    const logTimes = () =>
      recorder.frames
        .slice(configIndex + 1)
        .filter((recorded) => recorded.thingName === GENERIC && recorded.frame.type === 'log')
        .map((recorded) => (recorded.frame as LogFrame).t);
    await recorder.waitFor(() => logTimes().length >= 4);
    const [, second, third, fourth] = logTimes();
    expect(third! - second!).toBeGreaterThanOrEqual(900);
    expect(fourth! - third!).toBeGreaterThanOrEqual(900);
    expect(
      (await command(GENERIC, { cmd: 'writeConfig', channels: [{ code: 'c99', name: 'None' }] })).reply.result,
    ).toBe('FAIL');
  });

  it('moves a device clock forward at once when a test asks, never back', () => {
    const device = fleet.device(GENERIC)!;
    const now = device.advanceClockTo(0);
    expect(now).toBeGreaterThan(Date.now() - 60_000);
    expect(device.advanceClockTo(now + 3_600_000)).toBeCloseTo(now + 3_600_000, 0);
    expect(device.advanceClockTo(now)).toBeCloseTo(now + 3_600_000, 0);
  });

  it('says goodbye with conn false when the fleet stops, and then falls silent', async () => {
    const from = recorder.frames.length;
    await fleet.stop();
    for (const thingName of [GENERIC, BREW]) {
      const goodbye = await recorder.waitFor(
        (recorded) => recorded.thingName === thingName && recorded.frame.type === 'conn' && !recorded.frame.connected,
        { fromIndex: from },
      );
      // A goodbye carries its time; the will (ungraceful loss) does not.
      expect(recorder.frames[goodbye]?.frame).toMatchObject({ connected: false, t: expect.any(Number) });
    }
    expect(fleet.devices.every((device) => !device.connected)).toBe(true);

    const afterStop = recorder.frames.length;
    // Gone from the broker (the recorder is its one client left): a device that came back is counted.
    await vi.waitFor(() => expect(broker.aedes.connectedClients).toBe(1), { timeout: 5_000 });
    // Every frame the broker took from the devices before they left has reached the recorder...
    await recorder.settle();
    // ...and none came after the goodbyes.
    expect(recorder.frames.length).toBe(afterStop);
    expect(broker.aedes.connectedClients).toBe(1);
  });
});
