import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { upgradeFrame } from './frame-upgrade';

const T = 1_700_000_000;

describe('upgradeFrame: upgrade paths', () => {
  it.each([
    [
      'v4 log passes unchanged',
      { v: 4, type: 'log', t: T, values: { c1: 1 } },
      { v: 4, type: 'log', t: T, values: { c1: 1 } },
      4,
    ],
    [
      'v1 log: ver, ts and {code, value} pairs',
      {
        ver: 1,
        type: 'log',
        ts: T,
        values: [
          { code: 'c1', value: 21.5 },
          { code: 'do1', value: 1 },
        ],
      },
      { v: 4, type: 'log', t: T, values: { c1: 21.5, do1: 1 } },
      1,
    ],
    [
      'v1 log: temperature-control pairs carry tempSp and diff into extra',
      {
        ver: 1,
        type: 'log',
        ts: T,
        values: [
          { code: 'st1', value: 4, tempSp: 3.5, diff: 0.5 },
          { code: 'c1', value: 2 },
        ],
      },
      { v: 4, type: 'log', t: T, values: { st1: 4, c1: 2 }, extra: { st1: { tempSp: 3.5, diff: 0.5 } } },
      1,
    ],
    [
      'v1 log: only the fields present go into extra',
      { ver: 1, type: 'log', ts: T, values: [{ code: 'st2', value: 4, diff: 1 }] },
      { v: 4, type: 'log', t: T, values: { st2: 4 }, extra: { st2: { diff: 1 } } },
      1,
    ],
    [
      'v1 log with no values at all',
      { ver: 1, type: 'log', ts: T, values: [] },
      { v: 4, type: 'log', t: T, values: {} },
      1,
    ],
    [
      'v1 update becomes status',
      { ver: 1, type: 'update', ts: T, status: { sp: 5 } },
      { v: 4, type: 'status', t: T, status: { sp: 5 } },
      1,
    ],
    [
      'v1 health: ts becomes t',
      { ver: 1, type: 'health', ts: T, health: { errorStatus: 0 } },
      { v: 4, type: 'health', t: T, health: { errorStatus: 0 } },
      1,
    ],
    [
      'v1 conn: ts becomes t',
      { ver: 1, type: 'conn', ts: T, connected: true },
      { v: 4, type: 'conn', t: T, connected: true },
      1,
    ],
    [
      'v1 config output of the main group becomes dOut',
      { ver: 1, type: 'config', subtype: 'output', group: 'main', channels: [{ code: 'do1' }] },
      { v: 4, type: 'config', subtype: 'dOut', channels: [{ code: 'do1' }] },
      1,
    ],
    [
      'v2 log: data becomes values',
      { v: 2, type: 'log', t: T, data: { c1: 3 } },
      { v: 4, type: 'log', t: T, values: { c1: 3 } },
      2,
    ],
    [
      'v2 written with ver is read too',
      { ver: 2, type: 'log', t: T, data: { c1: 3 } },
      { v: 4, type: 'log', t: T, values: { c1: 3 } },
      2,
    ],
    [
      'v2 update becomes status',
      { v: 2, type: 'update', t: T, status: { sp: 1 } },
      { v: 4, type: 'status', t: T, status: { sp: 1 } },
      2,
    ],
    [
      'v2 config input of the secondary group becomes secondary',
      { v: 2, type: 'config', subtype: 'input', group: 'secondary', channels: [{ code: 'cs1' }] },
      { v: 4, type: 'config', subtype: 'secondary', channels: [{ code: 'cs1' }] },
      2,
    ],
    [
      'v3 log keeps its values',
      { v: 3, type: 'log', t: T, values: { a1: 7 } },
      { v: 4, type: 'log', t: T, values: { a1: 7 } },
      3,
    ],
    [
      'v3 update becomes status',
      { v: 3, type: 'update', t: T, status: { sp: 2 } },
      { v: 4, type: 'status', t: T, status: { sp: 2 } },
      3,
    ],
    [
      'v3 config output without a group is the main relay group',
      { v: 3, type: 'config', subtype: 'output', channels: [] },
      { v: 4, type: 'config', subtype: 'dOut', channels: [] },
      3,
    ],
    [
      'v3 config input of the main group stays input',
      { v: 3, type: 'config', subtype: 'input', group: 'main', channels: [] },
      { v: 4, type: 'config', subtype: 'input', channels: [] },
      3,
    ],
    [
      'v3 config input without a group stays input',
      { v: 3, type: 'config', subtype: 'input' },
      { v: 4, type: 'config', subtype: 'input' },
      3,
    ],
    [
      'v3 config input of the secondary group becomes secondary',
      { v: 3, type: 'config', subtype: 'input', group: 'secondary' },
      { v: 4, type: 'config', subtype: 'secondary' },
      3,
    ],
    [
      'v3 device config is unchanged',
      { v: 3, type: 'config', subtype: 'device', sn: 'SN1', hw: 'ZEN6:r1' },
      { v: 4, type: 'config', subtype: 'device', sn: 'SN1', hw: 'ZEN6:r1' },
      3,
    ],
    [
      'v4 update is not renamed (only legacy frames are)',
      { v: 4, type: 'update', t: T },
      { v: 4, type: 'update', t: T },
      4,
    ],
    [
      'v3 reply passes with its fields',
      { v: 3, type: 'reply', id: 'abc', result: 'OK' },
      { v: 4, type: 'reply', id: 'abc', result: 'OK' },
      3,
    ],
  ])('%s', (_label, raw, frame, fromVersion) => {
    expect(upgradeFrame(raw)).toEqual({ ok: true, frame, fromVersion });
  });
});

describe('upgradeFrame: refusals', () => {
  it.each([
    ['null', null, 'Frame is not a JSON object'],
    ['an array', [{ v: 4 }], 'Frame is not a JSON object'],
    ['a string', 'hello', 'Frame is not a JSON object'],
    ['a number', 4, 'Frame is not a JSON object'],
    ['no version', { type: 'log' }, 'Frame has no version'],
    ['version 7', { v: 7, type: 'log' }, 'Unsupported frame version 7'],
    ['version 0', { v: 0 }, 'Unsupported frame version 0'],
    ['version 5', { ver: 5 }, 'Unsupported frame version 5'],
    ['version -1', { v: -1 }, 'Unsupported frame version -1'],
    ['version 3.5', { v: 3.5 }, 'Unsupported frame version 3.5'],
    ['a version in a string', { v: '3' }, 'Unsupported frame version "3"'],
    ['a null version', { v: null }, 'Unsupported frame version null'],
    ['an object version', { v: { n: 1 } }, 'Unsupported frame version of type object'],
    ['both v and ver', { v: 3, ver: 3 }, 'Frame carries both v and ver'],
    ['v1 with both ts and t', { ver: 1, type: 'conn', ts: T, t: T }, 'Frame carries both ts and t'],
    [
      'v2 log with both data and values',
      { v: 2, type: 'log', data: {}, values: {} },
      'Frame carries both data and values',
    ],
    [
      'v1 log values as a map',
      { ver: 1, type: 'log', values: { c1: 1 } },
      'Version 1 log values must be an array of {code, value}',
    ],
    ['v1 log value not an object', { ver: 1, type: 'log', values: [3] }, 'Version 1 log value 0 is not an object'],
    [
      'v1 log value without a code',
      { ver: 1, type: 'log', values: [{ code: 'c1', value: 1 }, { value: 1 }] },
      'Version 1 log value 1 needs a string code and a number value',
    ],
    [
      'v1 log value with a text value',
      { ver: 1, type: 'log', values: [{ code: 'c1', value: '1' }] },
      'Version 1 log value 0 needs a string code and a number value',
    ],
    [
      'v1 log value with a text tempSp',
      { ver: 1, type: 'log', values: [{ code: 'st1', value: 1, tempSp: 'x' }] },
      'Version 1 log value 0 has a non-numeric tempSp or diff',
    ],
    [
      'v1 log repeating a channel',
      {
        ver: 1,
        type: 'log',
        values: [
          { code: 'c1', value: 1 },
          { code: 'c1', value: 2 },
        ],
      },
      'Version 1 log repeats channel "c1"',
    ],
    [
      'an output group other than main',
      { v: 3, type: 'config', subtype: 'output', group: 'aux' },
      'Unsupported output group "aux"',
    ],
    [
      'an input group that never existed',
      { v: 2, type: 'config', subtype: 'input', group: 7 },
      'Unsupported input group 7',
    ],
  ])('refuses %s', (_label, raw, error) => {
    expect(upgradeFrame(raw)).toEqual({ ok: false, error });
  });

  it('keeps a long text version short in the message', () => {
    const result = upgradeFrame({ v: 'x'.repeat(10_000) });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.length).toBeLessThan(80);
  });
});

describe('upgradeFrame: safety', () => {
  it('does not change its input', () => {
    const raw = { ver: 1, type: 'log', ts: T, values: [{ code: 'c1', value: 1 }] };
    const copy: unknown = JSON.parse(JSON.stringify(raw));
    upgradeFrame(deepFreeze(raw));
    expect(raw).toEqual(copy);
  });

  it('returns a copy of a version 4 frame', () => {
    const raw = { v: 4, type: 'conn', connected: true };
    const result = upgradeFrame(raw);
    expect(result.ok && result.frame).not.toBe(raw);
  });

  it('gives a version 4 frame back as a copy with the same fields, whatever their order', () =>
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.boolean(), (fields, vFirst) => {
        const { v: _v, ver: _ver, ...rest } = fields;
        const raw = vFirst ? { v: 4, ...rest } : { ...rest, v: 4 };
        const result = upgradeFrame(raw);
        expect(result).toEqual({ ok: true, frame: { v: 4, ...rest }, fromVersion: 4 });
        expect(result.ok && result.frame).not.toBe(raw);
      }),
    ));

  it('cannot be led to set a prototype by a channel named __proto__', () => {
    const raw = JSON.parse('{"ver":1,"type":"log","values":[{"code":"__proto__","value":1}]}') as unknown;
    const result = upgradeFrame(raw);
    expect(result.ok).toBe(true);
    if (result.ok) {
      const values = result.frame.values as object;
      expect(Object.getPrototypeOf(values)).toBe(Object.prototype);
      expect(Object.hasOwn(values, '__proto__')).toBe(true);
    }
  });

  it('answers any value with a result and never throws', () =>
    fc.assert(
      fc.property(fc.anything({ withNullPrototype: true, withObjectString: true }), (raw) => {
        const result = upgradeFrame(raw);
        expect(typeof result.ok).toBe('boolean');
      }),
      { numRuns: 2000 },
    ));

  const frameLike = fc.record(
    {
      v: fc.oneof(fc.integer({ min: -1, max: 8 }), fc.jsonValue()),
      ver: fc.oneof(fc.integer({ min: -1, max: 8 }), fc.jsonValue()),
      type: fc.constantFrom('log', 'update', 'status', 'health', 'config', 'conn', 'reply', 7),
      subtype: fc.constantFrom('output', 'input', 'device', 'dOut', null),
      group: fc.constantFrom('main', 'secondary', 'aux', 1),
      ts: fc.jsonValue(),
      t: fc.jsonValue(),
      values: fc.oneof(
        fc.array(fc.record({ code: fc.string(), value: fc.oneof(fc.double(), fc.string()) }, { requiredKeys: [] })),
        fc.jsonValue(),
      ),
      data: fc.jsonValue(),
    },
    { requiredKeys: [] },
  );

  it('gives version 4 frames, never a legacy type or version field, for anything frame-like', () =>
    fc.assert(
      fc.property(frameLike, (raw) => {
        const result = upgradeFrame(raw);
        if (!result.ok) return;
        expect(result.frame.v).toBe(4);
        expect(Object.hasOwn(result.frame, 'ver')).toBe(false);
        if (result.fromVersion < 4) {
          expect(result.frame.type).not.toBe('update');
          if (result.fromVersion === 1) expect(Object.hasOwn(result.frame, 'ts')).toBe(false);
          if (result.fromVersion <= 2 && result.frame.type === 'log') {
            expect(Object.hasOwn(result.frame, 'data')).toBe(false);
          }
          if (result.frame.type === 'config') expect(result.frame.subtype).not.toBe('output');
        }
      }),
      { numRuns: 2000 },
    ));

  it('upgrades any well-formed version 1 log to the same values as a version 4 log', () => {
    const pairs = fc.uniqueArray(
      fc.record({ code: fc.constantFrom('c1', 'c2', 'a3', 'do4', 'sp-5', 'gpf9'), value: fc.double({ noNaN: true }) }),
      { selector: (pair) => pair.code, maxLength: 6 },
    );
    fc.assert(
      fc.property(pairs, fc.integer({ min: 0, max: 2 ** 42 }), (values, ts) => {
        const result = upgradeFrame({ ver: 1, type: 'log', ts, values });
        expect(result).toEqual({
          ok: true,
          fromVersion: 1,
          frame: { v: 4, type: 'log', t: ts, values: Object.fromEntries(values.map((p) => [p.code, p.value])) },
        });
      }),
    );
  });
});

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
