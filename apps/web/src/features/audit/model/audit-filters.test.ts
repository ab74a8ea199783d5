import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '@fieldlink/api/audit';
import { auditCsv, auditFiltersOf, EMPTY_AUDIT_FILTER_DRAFT } from './audit-filters';

const entry: AuditEntry = {
  id: 'e1',
  accountId: 'a1',
  seq: 7,
  at: Date.UTC(2026, 10, 29, 12, 0, 0),
  actor: { kind: 'user', id: 'u1', name: 'ann@fieldlink.test' },
  address: '10.0.0.5',
  client: 'http; Mozilla/5.0',
  action: 'group.rename',
  target: { kind: 'group', id: 'g1', name: '=HYPERLINK("x")' },
  deviceId: null,
  before: { name: 'North' },
  after: { name: 'South' },
  prevHash: 'p',
  hash: 'h',
};

describe('auditCsv', () => {
  it('writes a header and one line per entry, formulas neutralised and JSON quoted', () => {
    const lines = auditCsv([entry]).split('\r\n');
    expect(lines[0]).toBe(
      'Time (UTC),Account,Seq,Actor,Actor kind,Address,Client,Action,Target,Target id,Device id,Before,After,Hash',
    );
    expect(lines[1]).toBe(
      `2026-11-29T12:00:00.000Z,a1,7,ann@fieldlink.test,user,10.0.0.5,http; Mozilla/5.0,group.rename,"'=HYPERLINK(""x"")",group:g1,,"{""name"":""North""}","{""name"":""South""}",h`,
    );
    expect(lines[2]).toBe('');
  });
});

describe('auditFiltersOf', () => {
  it.each([
    [EMPTY_AUDIT_FILTER_DRAFT, { filters: {} }],
    [{ ...EMPTY_AUDIT_FILTER_DRAFT, action: 'move' }, { filters: { action: 'move' } }],
    [
      { ...EMPTY_AUDIT_FILTER_DRAFT, from: '2026-11-02T00:00', to: '2026-11-01T00:00' },
      { problem: 'The time range ends before it starts.' },
    ],
    // Read in the page's zone (Sydney, UTC+11 in November), never the browser's.
    [
      { ...EMPTY_AUDIT_FILTER_DRAFT, from: '2026-11-02T00:00', to: '2026-11-02T10:59' },
      { filters: { from: Date.UTC(2026, 10, 1, 13, 0), to: Date.UTC(2026, 10, 1, 23, 59, 59, 999) } },
    ],
  ])('%j -> %j', (draft, expected) => expect(auditFiltersOf(draft, 'Australia/Sydney')).toEqual(expected));
});
