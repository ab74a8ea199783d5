import { describe, expect, it } from 'vitest';
import { Value } from '@sinclair/typebox/value';
import { upgradeFrame } from '@fieldlink/domain/frame-upgrade';
import { DeviceFrame, DeviceCommand } from './device-frames';
import { deviceDownTopic, deviceUpTopic, isThingName, thingNameFromUpTopic } from './mqtt-topics';

describe('legacy frames upgraded by the domain satisfy the version 4 schema', () => {
  it.each([
    [
      'v1 log with value pairs',
      {
        ver: 1,
        type: 'log',
        ts: 1700000000,
        values: [
          { code: 'c1', value: 21.5 },
          { code: 'st1', value: 4.1, tempSp: 4, diff: 0.5 },
        ],
      },
    ],
    ['v1 update -> status', { ver: 1, type: 'update', ts: 1700000000, status: { sp: 16 } }],
    [
      'v1 config output main -> dOut',
      { ver: 1, type: 'config', subtype: 'output', group: 'main', channels: [{ code: 'do1' }] },
    ],
    ['v2 log with data', { v: 2, type: 'log', t: 1700000000000, data: { c1: 1 } }],
    ['v3 secondary input', { v: 3, type: 'config', subtype: 'input', group: 'secondary', channels: [{ code: 'cs1' }] }],
    ['v4 health', { v: 4, type: 'health', t: 1700000000, health: { signal: -71, errorStatus: 0 } }],
  ])('%s', (_name, raw) => {
    const result = upgradeFrame(raw);
    expect(result.ok).toBe(true);
    if (result.ok)
      expect([...Value.Errors(DeviceFrame, result.frame)].map((error) => `${error.path} ${error.message}`)).toEqual([]);
  });

  it.each([
    ['a string value', { v: 4, type: 'log', t: 1, values: { c1: '1' } }],
    ['an unknown type', { v: 4, type: 'telemetry', t: 1 }],
    ['an extra field', { v: 4, type: 'conn', connected: true, admin: true }],
    ['a wildcard in a channel code', { v: 4, type: 'log', t: 1, values: { '#': 1 } }],
    ['a reply without id', { v: 4, type: 'reply', result: 'OK' }],
    ['a time before 1970', { v: 4, type: 'log', t: -1, values: { c1: 1 } }],
    ['a time no clock holds', { v: 4, type: 'log', t: -2.15e122, values: { c1: 1 } }],
    ['a time past year 275760', { v: 4, type: 'health', t: 8.64e15 + 1, health: {} }],
    ['a connection time no clock holds', { v: 4, type: 'conn', t: 1e300, connected: true }],
  ])('refuses %s', (_name, frame) => {
    expect(Value.Check(DeviceFrame, frame)).toBe(false);
  });

  it.each([
    ['1970 in seconds', 0],
    ['seconds', 1_700_000_000.5],
    ['milliseconds', 1_700_000_000_123],
    ['the latest a Date holds', 8.64e15],
  ])('takes a time of %s', (_name, t) => {
    expect(Value.Check(DeviceFrame, { v: 4, type: 'log', t, values: { c1: 1 } })).toBe(true);
  });

  it('checks command shapes, register values as 16-bit', () => {
    expect(
      Value.Check(DeviceCommand, { v: 4, id: 'a', exp: 1, cmd: 'writeRegister', register: 5405, value: 65535 }),
    ).toBe(true);
    expect(
      Value.Check(DeviceCommand, { v: 4, id: 'a', exp: 1, cmd: 'writeRegister', register: 5405, value: 65536 }),
    ).toBe(false);
  });
});

describe('topics', () => {
  it.each([
    ['ACME-BLR01', true],
    ['FL7K3Q9XW2PD', true],
    ['a+b', false],
    ['a/b', false],
    ['#', false],
    ['ab', false],
    ['x'.repeat(65), false],
  ])('isThingName(%s) is %s', (name, valid) => expect(isThingName(name)).toBe(valid));

  it.each([
    ['dev/ACME-BLR01/up', 'ACME-BLR01'],
    ['dev/ACME-BLR01/down', null],
    ['dev/+/up', null],
    ['dev/a/b/up', null],
    ['other/ACME-BLR01/up', null],
  ])('thingNameFromUpTopic(%s) is %s', (topic, thingName) => expect(thingNameFromUpTopic(topic)).toBe(thingName));

  it('builds the two topics of a device', () => {
    expect([deviceUpTopic('X-1'), deviceDownTopic('X-1')]).toEqual(['dev/X-1/up', 'dev/X-1/down']);
  });
});
