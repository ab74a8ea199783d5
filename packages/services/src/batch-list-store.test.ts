import { describe, expect, it } from 'vitest';
import type { Batch } from '@fieldlink/api/brew';
import { BatchListStore, type BatchListRecords } from './batch-list-store';
import type { BrewDevice } from './brew-service';

const NOW = Date.UTC(2026, 10, 25, 9);
const RATINGS = { aroma: 4, flavor: 4, mouthfeel: 3, appearance: 3, overall: 4, carbonation: 2 };

const batch = (): Batch =>
  ({
    id: 'b1',
    deviceId: 'fv1',
    date: { start: NOW - 1000, end: null },
    gravities: [{ id: 'g1', value: 1.05, timestamp: NOW, createdBy: null }],
    sensories: [{ id: 's1', ...RATINGS, notes: 'Citrus', timestamp: NOW, createdBy: null }],
    annotations: [
      { id: 'a1', kind: 'plotLine', text: 'Tasting', timestamp: NOW, color: 'blue', sensoryId: 's1', channel: null },
      { id: 'a2', kind: 'plotLine', text: 'Dry hop', timestamp: NOW - 10, color: 'grey', channel: null },
    ],
  }) as unknown as Batch;

function store() {
  const records: BatchListRecords = { tanks: [], batches: [batch()] };
  const written: string[] = [];
  const lists = new BatchListStore<{ id: string; name: string }, BrewDevice>(
    records,
    {
      group: () => undefined,
      devicesOf: async () => [],
      latest: () => undefined,
      channelLogs: async () => {
        throw new Error('no logs here');
      },
    },
    {
      refusal: (status, message) => new Error(`${status} ${message}`),
      newId: (kind) => `${kind}-new`,
      written: async (change) => void written.push(change),
      isDemo: true,
    },
  );
  return { lists, records, written };
}

describe('a store of whole batches', () => {
  it.each([
    [
      'a reading placed in time order',
      (lists: BatchListStore<{ id: string; name: string }, BrewDevice>, stored: Batch) =>
        lists.saveGravity(stored, { id: 'g0', value: 1.06, timestamp: NOW - 500 }),
      'gravity b1',
      (stored: Batch) => stored.gravities.map((entry) => entry.id),
      ['g0', 'g1'],
    ],
    [
      'a reading replaced under its id',
      (lists: BatchListStore<{ id: string; name: string }, BrewDevice>, stored: Batch) =>
        lists.saveGravity(stored, { id: 'g1', value: 1.04, timestamp: NOW }),
      'gravity b1',
      (stored: Batch) => stored.gravities.map((entry) => entry.value),
      [1.04],
    ],
    [
      'a tasting note deleted with its mark',
      (lists: BatchListStore<{ id: string; name: string }, BrewDevice>, stored: Batch) =>
        lists.deleteItem(stored, 'sensories', { id: 's1', sensoryId: null }),
      'delete sensories b1',
      (stored: Batch) => [...stored.sensories, ...stored.annotations].map((entry) => entry.id),
      ['a2'],
    ],
    [
      'an annotation deleted alone',
      (lists: BatchListStore<{ id: string; name: string }, BrewDevice>, stored: Batch) =>
        lists.deleteItem(stored, 'annotations', { id: 'a2', sensoryId: null }),
      'delete annotations b1',
      (stored: Batch) => [...stored.sensories, ...stored.annotations].map((entry) => entry.id),
      ['s1', 'a1'],
    ],
    [
      'a tasting note edited keeping its mark’s id',
      (lists: BatchListStore<{ id: string; name: string }, BrewDevice>, stored: Batch) =>
        lists.saveTastingNote(
          stored,
          { id: 's1', ratings: RATINGS, notes: 'Pine', timestamp: NOW },
          {
            kind: 'plotLine',
            text: 'Tasting: Pine',
            timestamp: NOW,
            color: 'blue',
            sensoryId: 's1',
            channelCode: null,
          },
        ),
      'sensory b1',
      (stored: Batch) => stored.annotations.map((entry) => [entry.id, entry.text]),
      [
        ['a2', 'Dry hop'],
        ['a1', 'Tasting: Pine'],
      ],
    ],
    [
      'an annotation on a channel of the batch’s device',
      (lists: BatchListStore<{ id: string; name: string }, BrewDevice>, stored: Batch) =>
        lists.saveAnnotation(stored, {
          id: 'a3',
          kind: 'channel',
          text: 'Cooling',
          timestamp: NOW + 5,
          color: 'grey',
          sensoryId: null,
          channelCode: 't10',
        }),
      'annotation b1',
      (stored: Batch) => stored.annotations.map((entry) => entry.channel),
      [null, null, { code: 't10', deviceId: 'fv1' }],
    ],
  ] as const)('keeps %s and tells of the write', async (_name, write, change, read, expected) => {
    const { lists, records, written } = store();
    await write(lists, records.batches[0]!);
    expect(read(records.batches[0]!)).toEqual(expected);
    expect(written).toEqual([change]);
  });

  it('ends a batch and takes the end back, no longer running and running again', async () => {
    const { lists, records, written } = store();
    await lists.endBatch(records.batches[0]!, { state: 'MANUALLY_ENDED', end: NOW, transitions: [] });
    expect(await lists.runsBatch('fv1')).toBe(false);
    await lists.resumeBatch(records.batches[0]!, { state: 'FERMENTING', end: null, transitions: [] });
    expect(await lists.runsBatch('fv1')).toBe(true);
    expect(written).toEqual(['end b1', 'resume b1']);
  });
});
