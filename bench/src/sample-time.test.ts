import { describe, expect, it } from 'vitest';
import { sampleTime } from './cluster-support';

describe('sampleTime', () => {
  it('reads the sample time of a value message the server sends', () => {
    const message = JSON.stringify({
      type: 'server/newRawLogs',
      thingName: 'fl-0001',
      logs: { AI1: [{ value: 12.5, t: 1_764_513_600_123 }] },
    });
    expect(sampleTime(Buffer.from(message))).toBe(1_764_513_600_123);
  });

  it.each([
    ['a reply', '{"type":"server/reply","id":"s1","ok":true,"t":1764513600123}'],
    ['a value without a time', '{"type":"server/newRawLogs","thingName":"fl-0001","logs":{}}'],
    ['a time cut short', '{"type":"server/newRawLogs","logs":{"AI1":[{"value":1,"t":17645136'],
    ['a time that is not digits', '{"type":"server/newRawLogs","logs":{"AI1":[{"value":1,"t":null,"x":"1234567"}]}}'],
  ])('is null for %s', (_name, message) => {
    expect(sampleTime(Buffer.from(message))).toBeNull();
  });
});
