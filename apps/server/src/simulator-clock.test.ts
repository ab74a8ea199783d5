import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { answerDeviceClock, answerDeviceClockRequests, type DeviceClockAnswer } from './simulator-clock';

/**
 * A fleet of one device whose clock only moves forward, as a plant model's does, and whose register
 * 5450 counts the minutes it has lived (a register its own clock changes).
 */
function oneDeviceFleet(startMs: number) {
  let timeMs = startMs;
  return {
    device: (thingName: string) =>
      thingName === 'OSC-SPR01'
        ? {
            advanceClockTo: (toMs: number) => {
              timeMs = Math.max(timeMs, toMs);
              return timeMs;
            },
            readRegister: (register: number) => (register === 5450 ? Math.floor(timeMs / 60_000) : undefined),
          }
        : undefined,
  };
}

describe('device clock requests of the e2e harness', () => {
  it('answers the device time, moved forward when asked, and says when there is no such device', () => {
    const fleet = oneDeviceFleet(1_000);
    const ask = (thingName: string, advanceToMs?: number) =>
      answerDeviceClock(fleet, { type: 'fieldlink/device-clock', id: 7, thingName, advanceToMs });
    expect(ask('OSC-SPR01')).toEqual({ type: 'fieldlink/device-clock', id: 7, timeMs: 1_000 });
    expect(ask('OSC-SPR01', 61_000)).toEqual({ type: 'fieldlink/device-clock', id: 7, timeMs: 61_000 });
    expect(ask('OSC-SPR01', 5_000)).toEqual({ type: 'fieldlink/device-clock', id: 7, timeMs: 61_000 });
    expect(ask('NO-SUCH')).toEqual({ type: 'fieldlink/device-clock', id: 7, error: 'No simulated device NO-SUCH' });
  });

  it('answers a register as the device holds it after its clock moved, and null for one it lacks', () => {
    const fleet = oneDeviceFleet(60_000);
    const ask = (register: number, advanceToMs?: number) =>
      answerDeviceClock(fleet, {
        type: 'fieldlink/device-clock',
        id: 8,
        thingName: 'OSC-SPR01',
        advanceToMs,
        register,
      });
    expect(ask(5450)).toEqual({ type: 'fieldlink/device-clock', id: 8, timeMs: 60_000, registerValue: 1 });
    expect(ask(5450, 600_000)).toEqual({ type: 'fieldlink/device-clock', id: 8, timeMs: 600_000, registerValue: 10 });
    expect(ask(1)).toEqual({ type: 'fieldlink/device-clock', id: 8, timeMs: 600_000, registerValue: null });
  });

  it('listens only where a parent opened an IPC channel, and answers only its requests', () => {
    const withoutChannel = new EventEmitter();
    answerDeviceClockRequests(oneDeviceFleet(0), withoutChannel as unknown as NodeJS.Process);
    expect(withoutChannel.listenerCount('message')).toBe(0);

    const sent: DeviceClockAnswer[] = [];
    const withChannel = Object.assign(new EventEmitter(), { send: (answer: DeviceClockAnswer) => sent.push(answer) });
    answerDeviceClockRequests(oneDeviceFleet(0), withChannel as unknown as NodeJS.Process);
    withChannel.emit('message', { type: 'something else', id: 1, thingName: 'OSC-SPR01' });
    withChannel.emit('message', { type: 'fieldlink/device-clock', id: 2, thingName: 'OSC-SPR01', advanceToMs: 9 });
    expect(sent).toEqual([{ type: 'fieldlink/device-clock', id: 2, timeMs: 9 }]);
  });
});
