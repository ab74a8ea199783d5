import { describe, expect, it } from 'vitest';
import {
  AUDIT_ACTIONS,
  AUDIT_ACTION_LABELS,
  AUDIT_GENESIS_HASH,
  auditHashInput,
  auditQueryProblem,
  auditRetentionCutoff,
  canonicalJson,
  isAuditAction,
  isAuditedCommand,
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
  ])('%j -> %s', (filters, expected) => expect(auditQueryProblem(filters)).toBe(expected));
});

describe('AUDIT_ACTION_LABELS', () => {
  it('names every action once', () => {
    expect(Object.keys(AUDIT_ACTION_LABELS).sort()).toEqual([...AUDIT_ACTIONS].sort());
    expect(new Set(Object.values(AUDIT_ACTION_LABELS)).size).toBe(AUDIT_ACTIONS.length);
  });
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
