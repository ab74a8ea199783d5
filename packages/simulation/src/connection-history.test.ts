import { describe, expect, it } from 'vitest';
import { connectedMs } from '@fieldlink/domain/reports';
import { connectionHistory } from './connection-history';
import { seedFromText } from './seeded-random';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 29);

// Issue 35 item 10: the seeded connection history spans the seeded logs, so reports read a real uptime.
describe('connectionHistory', () => {
  it.each(['NGB-FV01', 'OSC-SPR01', 'FTW-PLANT01', 'CRS-SHELF01', 'ACME-BLR01'])(
    '%s: connected over 30 days but for short outages, in order, disconnected at the end',
    (thingName) => {
      const from = NOW - 30 * DAY;
      const changes = connectionHistory(seedFromText(thingName), from, NOW);
      expect(changes[0]).toEqual({ t: from, connected: true });
      expect(changes.at(-1)).toEqual({ t: NOW, connected: false });
      for (let index = 1; index < changes.length; index += 1) {
        expect(changes[index]!.t).toBeGreaterThan(changes[index - 1]!.t);
        expect(changes[index]!.connected).toBe(!changes[index - 1]!.connected);
      }
      const uptime = connectedMs(false, changes, from, NOW) / (30 * DAY);
      expect(uptime).toBeGreaterThan(0.97);
      expect(uptime).toBeLessThan(1);
    },
  );

  it('is the same on every start, and empty over an empty period', () => {
    expect(connectionHistory(7, NOW - DAY, NOW)).toEqual(connectionHistory(7, NOW - DAY, NOW));
    expect(connectionHistory(7, NOW, NOW)).toEqual([]);
  });
});
