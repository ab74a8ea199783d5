import { describe, expect, it } from 'vitest';
import {
  auditChangeLines,
  AUDIT_ACTIONS,
  AUDIT_ACTION_LABELS,
  AUDIT_GENESIS_HASH,
  auditHashInput,
  auditQueryProblem,
  auditRetentionCutoff,
  canonicalJson,
  isAuditAction,
  isAuditedCommand,
  SYSTEM_AUDIT_CHAIN,
  type AuditEntryFacts,
} from './audit';

describe('canonicalJson', () => {
  it.each([
    [
      'sorted keys at every depth',
      { b: 1, a: { d: [1, { z: 1, y: 2 }], c: 'x' } },
      '{"a":{"c":"x","d":[1,{"y":2,"z":1}]},"b":1}',
    ],
    ['undefined members left out', { a: undefined, b: null }, '{"b":null}'],
    ['undefined alone is null', undefined, 'null'],
    ['undefined in an array is null', [undefined, 1], '[null,1]'],
    ['strings escaped as JSON', { 'k"': 'a\nb' }, '{"k\\"":"a\\nb"}'],
    ['numbers as JSON prints them', [1.5, -0, 1e21], '[1.5,0,1e+21]'],
  ])('%s', (_name, value, expected) => expect(canonicalJson(value)).toBe(expected));

  it('gives one text whatever order the keys were built in', () =>
    expect(canonicalJson({ x: 1, y: 2 })).toBe(canonicalJson({ y: 2, x: 1 })));
});

describe('auditHashInput', () => {
  const facts: AuditEntryFacts = {
    accountId: 'a1',
    seq: 1,
    at: 5,
    actor: { kind: 'user', id: 'u1', name: 'ann@x.test' },
    address: '127.0.0.1',
    client: 'http',
    action: 'group.add',
    target: { kind: 'group', id: 'g1', name: 'North' },
    deviceId: null,
    before: null,
    after: { name: 'North' },
  };
  it('starts with the previous hash', () =>
    expect(auditHashInput(AUDIT_GENESIS_HASH, facts).startsWith('0'.repeat(64) + '{')).toBe(true));
  it('changes with any field', () =>
    expect(auditHashInput('x', facts)).not.toBe(auditHashInput('x', { ...facts, after: { name: 'South' } })));
});

describe('auditQueryProblem', () => {
  it.each([
    [{}, null],
    [{ action: 'device.command' }, null],
    [{ action: 'device.explode' }, 'Unknown action "device.explode".'],
    [{ from: 1, to: 1 }, null],
    [{ from: 2, to: 1 }, 'The time range ends before it starts: "from" must not be after "to".'],
    [{ from: 2 }, null],
    [{ to: 1 }, null],
  ])('%j -> %s', (filters, expected) => expect(auditQueryProblem(filters)).toBe(expected));
});

describe('AUDIT_ACTION_LABELS', () => {
  it('names every action once', () => {
    expect(Object.keys(AUDIT_ACTION_LABELS).sort()).toEqual([...AUDIT_ACTIONS].sort());
    expect(new Set(Object.values(AUDIT_ACTION_LABELS)).size).toBe(AUDIT_ACTIONS.length);
  });

  it.each(AUDIT_ACTIONS.map((action) => [action]))('names %s in words', (action) =>
    expect(AUDIT_ACTION_LABELS[action]).toMatch(/^[A-Z][A-Za-z-]*( [A-Za-z-]+)*$/),
  );
});

describe('SYSTEM_AUDIT_CHAIN', () => {
  it('cannot be an account id', () => expect(SYSTEM_AUDIT_CHAIN).toMatch(/^\*.+\*$/));
});

describe('isAuditAction', () => {
  it.each([
    ['session.signInRefused', true],
    ['audit.trim', true],
    ['SESSION.SIGNIN', false],
    ['', false],
  ])('%s -> %s', (name, expected) => expect(isAuditAction(name)).toBe(expected));
});

describe('isAuditedCommand', () => {
  it.each([
    ['writeChannel', true],
    ['writeRegister', true],
    ['system', true],
    ['timeDate', true],
    ['writeConfig', true],
    ['otaUpdate', true],
    ['readChannel', false],
    ['readRegister', false],
    ['refreshMetadata', false],
  ])('%s -> %s', (cmd, expected) => expect(isAuditedCommand(cmd)).toBe(expected));
});

describe('auditRetentionCutoff', () => {
  it.each([
    [1_000_000_000_000, 731, 1_000_000_000_000 - 731 * 86_400_000],
    [1_000_000_000_000, 0, null],
  ])('now %d, %d days -> %s', (now, days, expected) => expect(auditRetentionCutoff(now, days)).toBe(expected));
});

describe('auditChangeLines: what an entry changed, as people read it', () => {
  const time = (t: number) => `t${t}`;
  it.each<[string, unknown, unknown, ReturnType<typeof auditChangeLines>]>([
    ['a rename', { name: 'North' }, { name: 'South' }, [{ field: 'Name', before: 'North', after: 'South' }]],
    [
      'an addition: ids left out, names kept',
      null,
      { name: 'Cellar', parentId: 'g1' },
      [{ field: 'Name', after: 'Cellar' }],
    ],
    [
      'a move: the ids out, the group names from and to',
      { groupId: 'g1', groupName: 'North' },
      { groupId: 'g2', groupName: 'South' },
      [{ field: 'Group name', before: 'North', after: 'South' }],
    ],
    [
      'a device command: its words, no correlation id',
      null,
      { cmd: 'writeChannel', code: 'do1', value: 1, commandId: 'c-1' },
      [
        { field: 'Command', after: 'writeChannel' },
        { field: 'Code', after: 'do1' },
        { field: 'Value', after: '1' },
      ],
    ],
    [
      'an edit: only what changed',
      { firstName: 'Ann', lastName: 'Lee', enabled: true },
      { firstName: 'Ann', lastName: 'Lee-Smith', enabled: false },
      [
        { field: 'Last name', before: 'Lee', after: 'Lee-Smith' },
        { field: 'Enabled', before: 'yes', after: 'no' },
      ],
    ],
    [
      'an acknowledgement: times in the reader clock, none as a dash',
      { acknowledgedAt: null },
      { acknowledgedAt: 1_700_000_000_000 },
      [{ field: 'Acknowledged at', before: '—', after: 't1700000000000' }],
    ],
    [
      'a removal: a key only before',
      { name: 'Old', tags: ['a', 'b'] },
      {},
      [
        { field: 'Name', before: 'Old' },
        { field: 'Tags', before: 'a, b' },
      ],
    ],
    [
      'a nested value as compact JSON',
      null,
      { timeDate: { tzName: 'UTC' } },
      [{ field: 'Time date', after: '{"tzName":"UTC"}' }],
    ],
    [
      'named fields',
      null,
      { tzName: 'Europe/London', fw: '4.2' },
      [
        { field: 'Time zone', after: 'Europe/London' },
        { field: 'Firmware', after: '4.2' },
      ],
    ],
    ['a value that is not an object', 3, 4, [{ field: 'Value', before: '3', after: '4' }]],
    ['nothing recorded', null, null, []],
    ['nothing changed', { name: 'Same' }, { name: 'Same' }, []],
    // The boundaries mutation testing showed untested (issue 37 item 7).
    ['a value that is not an object, added', null, 5, [{ field: 'Value', after: '5' }]],
    ['a value that is not an object, removed', 'on', undefined, [{ field: 'Value', before: 'on' }]],
    ['an object replaced by a list', { a: 1 }, ['x'], [{ field: 'Value', before: '{"a":1}', after: 'x' }]],
    ['a key added beside a kept one', { a: 1 }, { a: 1, b: 2 }, [{ field: 'B', after: '2' }]],
    ['a key added with no value', { a: 1 }, { a: 1, b: null }, [{ field: 'B', after: '—' }]],
    ['a value emptied', { note: 'x' }, { note: null }, [{ field: 'Note', before: 'x', after: '—' }]],
    ['a list with an empty item', null, { tags: ['a', null] }, [{ field: 'Tags', after: 'a, —' }]],
    [
      'ids only as whole words or suffixes; times only as suffixes',
      null,
      { id: 'x1', identity: 'ann', paid: 'yes', userIdle: 2, siteIds: ['s1'], lastAttempt: 3 },
      [
        { field: 'Identity', after: 'ann' },
        { field: 'Paid', after: 'yes' },
        { field: 'User idle', after: '2' },
        { field: 'Last attempt', after: '3' },
      ],
    ],
    [
      'the time zone rule and an update by name',
      null,
      { tzRule: 'M3.5.0', ota: '4.2' },
      [
        { field: 'Time zone rule', after: 'M3.5.0' },
        { field: 'Update', after: '4.2' },
      ],
    ],
  ])('%s', (_, before, after, lines) => {
    expect(auditChangeLines(before, after, time)).toEqual(lines);
  });
});
