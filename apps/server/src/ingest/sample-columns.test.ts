import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FrameWriter, type BatchWrites, type LogRow } from './frame-writer';
import { fromSampleColumns, latestOfSamples, toSampleColumns } from './sample-columns';

const row: fc.Arbitrary<LogRow> = fc.record({
  device_id: fc.constantFrom('device-a', 'device-b', 'device-c'),
  code: fc.constantFrom('c1', 'c2', 'c10', 'ch_ünïcode'),
  t: fc.maxSafeInteger(),
  value: fc.double({ noNaN: true }),
});

describe('sample columns (the batch on its way to the SQLite writer thread)', () => {
  it('give back every sample, in order, whatever the devices and channels', () => {
    fc.assert(
      fc.property(fc.array(row, { maxLength: 300 }), (rows) => {
        const { columns, transfer } = toSampleColumns(rows)!;
        // Through a structured clone with the buffers handed over, as postMessage sends them.
        const received = structuredClone(columns, { transfer });
        expect(fromSampleColumns(received)).toEqual(rows);
      }),
    );
  });

  it('name a device once per run of its samples and each channel once', () => {
    const rows = [
      { device_id: 'a', code: 'c1', t: 1, value: 1 },
      { device_id: 'a', code: 'c2', t: 1, value: 2 },
      { device_id: 'b', code: 'c1', t: 1, value: 3 },
      { device_id: 'a', code: 'c1', t: 2, value: 4 },
    ];
    const { columns } = toSampleColumns(rows)!;
    expect(columns.devices).toEqual(['a', 'b', 'a']);
    expect([...columns.deviceRuns]).toEqual([2, 1, 1]);
    expect(columns.codes).toEqual(['c1', 'c2']);
    expect(columns.t.byteLength + columns.value.byteLength).toBe(rows.length * 16);
  });

  it('are not made of a sample whose time or value is not a number (the batch goes as rows)', () => {
    const good = { device_id: 'a', code: 'c1', t: 1, value: 1 };
    expect(toSampleColumns([good, { ...good, value: null as unknown as number }])).toBeNull();
    expect(toSampleColumns([good, { ...good, t: undefined as unknown as number }])).toBeNull();
    expect(toSampleColumns([good, { ...good, value: Number.NaN }])).not.toBeNull();
  });
});

describe('latest values worked out from the samples (the writer thread)', () => {
  // Frames as ingest gives them: each frame's samples are its latest values, some with an extra.
  const frame = fc.record({
    device_id: fc.constantFrom('device-a', 'device-b', 'device-c'),
    t: fc.integer({ min: 0, max: 5 }),
    values: fc.array(
      fc.record({
        code: fc.constantFrom('c1', 'c2', 'c10'),
        value: fc.double({ noNaN: true }),
        extra: fc.option(fc.constantFrom('{"tempSp":4}', '{"diff":1}'), { nil: null }),
      }),
      { maxLength: 4 },
    ),
  });

  it('are the latest values the frame writer kept, extras included, in its order', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(frame, { maxLength: 40 }), async (frames) => {
        const stored: BatchWrites[] = [];
        const writer = new FrameWriter(null as never, {
          maxDelayMs: 60_000,
          store: async (writes) => {
            stored.push(writes);
            return [];
          },
        });
        const written = frames.map(({ device_id, t, values }) => {
          const rows = values.map(({ code, value, extra }) => ({ device_id, code, t, value, extra }));
          return writer.write({ logs: rows, latest: rows });
        });
        await writer.flush();
        await Promise.all(written);
        for (const writes of stored) {
          expect(writes.latestOfSamples).toBe(true);
          const withExtra = structuredClone(writes.latest.filter((row) => row.extra !== null));
          expect(latestOfSamples(structuredClone(writes.logs), withExtra)).toEqual(writes.latest);
        }
      }),
    );
  });

  it('go to a store that works them out as their extras only, and whole once a frame gives others', async () => {
    // Frames of ingest (samples as latest values) and now and then another writer's frame: samples
    // with latest values of their own, or latest values alone.
    const write = fc.oneof(
      frame.map((f) => ({ ...f, kind: 'samples' as const })),
      frame.map((f) => ({ ...f, kind: 'other latest' as const })),
      frame.map((f) => ({ ...f, kind: 'latest alone' as const })),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(write, { maxLength: 40 }).filter((writes) => writes.some(({ kind }) => kind === 'samples')),
        async (writes) => {
          const storedBy = async (latestFromSamples: boolean) => {
            const stored: BatchWrites[] = [];
            const writer = new FrameWriter(null as never, {
              maxDelayMs: 60_000,
              latestFromSamples,
              store: async (batch) => {
                stored.push(batch);
                return [];
              },
            });
            const written = writes.map(({ device_id, t, values, kind }) => {
              const rows = values.map(({ code, value, extra }) => ({ device_id, code, t, value, extra }));
              if (kind === 'samples') return writer.write({ logs: rows, latest: rows });
              const latest = rows.map((row) => ({ ...row, t: row.t + 1 }));
              return writer.write(kind === 'other latest' ? { logs: rows, latest } : { latest });
            });
            await writer.flush();
            await Promise.all(written);
            return stored;
          };
          const [whole, fromSamples] = await Promise.all([storedBy(false), storedBy(true)]);
          expect(fromSamples.map((batch) => batch.logs)).toEqual(whole.map((batch) => batch.logs));
          for (const [i, batch] of fromSamples.entries()) {
            expect(batch.latestOfSamples).toBe(whole[i]!.latestOfSamples);
            if (!batch.latestOfSamples) expect(batch.latest).toEqual(whole[i]!.latest);
            else {
              expect(batch.latest).toEqual(whole[i]!.latest.filter((row) => row.extra !== null));
              expect(latestOfSamples(batch.logs, batch.latest)).toEqual(whole[i]!.latest);
            }
          }
        },
      ),
    );
  });

  it('are not said to be the samples own when a frame gives other latest values', async () => {
    const stored: BatchWrites[] = [];
    const writer = new FrameWriter(null as never, {
      store: async (writes) => {
        stored.push(writes);
        return [];
      },
    });
    const rows = [{ device_id: 'a', code: 'c1', t: 1, value: 1, extra: null }];
    const written = [writer.write({ logs: rows, latest: rows }), writer.write({ logs: rows, latest: [] })];
    await writer.flush();
    await Promise.all(written);
    expect(stored.map((writes) => writes.latestOfSamples)).toEqual([false]);
  });
});
