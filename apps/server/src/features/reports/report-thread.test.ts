import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocumentError } from '../../documents/document-jobs';
import { writableOf } from '../../documents/file-store';
import { documentBrand } from '../../documents/pdf-writer';
import { startTestApp, type TestApp } from '../../../testing/test-app';
import { NO_DATA_MESSAGE, writeReportDocument, type ReportOutput, type ReportPlan } from './report-document';
import { ReportThread } from './report-thread';

const MINUTE = 60_000;

/** A document collected in memory, with the progress it reported. */
function memoryOutput() {
  const chunks: Buffer[] = [];
  const fractions: number[] = [];
  const sink = {
    write: async (data: Buffer | string) => {
      chunks.push(typeof data === 'string' ? Buffer.from(data, 'utf8') : Buffer.from(data));
    },
  };
  const output: ReportOutput = {
    file: { ...sink, stream: () => writableOf(sink) },
    progress: async (fraction) => {
      fractions.push(fraction);
    },
  };
  return { output, fractions, bytes: () => Buffer.concat(chunks) };
}

// The report worker is used on PostgreSQL only (an in-memory SQLite database has no second
// connection); reports.test.ts generates reports on both databases through the service.
describe('the report worker thread on postgres', () => {
  let t: TestApp;
  let thread: ReportThread;
  const start = Date.UTC(2026, 9, 1);
  const plan = (overrides: Partial<ReportPlan> = {}): ReportPlan => ({
    name: 'Worker report',
    comments: null,
    format: 'CSV',
    devices: [
      {
        id: 'worker-device',
        name: 'Worker device',
        thingName: 'WORKER-1',
        channels: [
          { code: 'c1', name: 'Temperature' },
          { code: 't1', name: 'Flow total' },
        ],
      },
    ],
    start,
    end: start + 6 * 60 * MINUTE,
    interval: 'MINUTES_15',
    createdBy: 'brew@fieldlink.test',
    clock: { timeZone: 'UTC', hourCycle: '12', dateOrder: 'dmy' },
    brand: documentBrand({
      productName: 'fieldlink',
      accountName: 'Northgate Brewing',
      theme: null,
      defaultTheme: 'DEFAULT',
    }),
    ...overrides,
  });

  beforeAll(async () => {
    t = await startTestApp('postgres');
    thread = new ReportThread(t.config.databaseUrl);
    // Six hours of minute samples: c1 a wave, t1 a totalizer.
    const rows = Array.from({ length: 360 }, (_, index) => [
      { device_id: 'worker-device', code: 'c1', t: start + index * MINUTE, value: Math.sin(index / 30) * 10 },
      { device_id: 'worker-device', code: 't1', t: start + index * MINUTE, value: 500 + index * 0.5 },
    ]).flat();
    await t.app.storage.db.insertInto('logs').values(rows).execute();
  });

  afterAll(async () => {
    await thread?.close();
    await t?.close();
  });

  it('writes the same CSV as the writer in this thread, with its progress', async () => {
    const inWorker = memoryOutput();
    await thread.write(plan(), inWorker.output);
    const here = memoryOutput();
    await writeReportDocument(t.app.storage.db, plan(), here.output);
    expect(inWorker.bytes().toString('utf8')).toBe(here.bytes().toString('utf8'));
    expect(
      inWorker
        .bytes()
        .toString('utf8')
        .split('\r\n')
        .filter((line) => line.startsWith('interval')),
    ).toHaveLength(48);
    expect(inWorker.fractions.at(-1)).toBeGreaterThan(0.5);
  });

  it('writes a PDF, reusing the worker for reports that follow one another', async () => {
    const outputs = [memoryOutput(), memoryOutput()];
    await Promise.all(outputs.map(({ output }) => thread.write(plan({ format: 'PDF' }), output)));
    for (const { bytes } of outputs) {
      const pdf = bytes().toString('latin1');
      expect(pdf.startsWith('%PDF-')).toBe(true);
      expect(pdf.trimEnd().endsWith('%%EOF')).toBe(true);
    }
  });

  it("fails with the reader's message when the period holds no samples", async () => {
    const empty = memoryOutput();
    const failure = await thread
      .write(plan({ start: start - 60 * MINUTE, end: start }), empty.output)
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DocumentError);
    expect((failure as Error).message).toBe(NO_DATA_MESSAGE);
  });

  it('fails the report whose worker stops, and starts another worker for the next report', async () => {
    const stopping = memoryOutput();
    // The worker is stopped as soon as it reports progress, in the middle of the report.
    stopping.output.progress = async () => void thread.close();
    const failure = await thread.write(plan(), stopping.output).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect(failure).not.toBeInstanceOf(DocumentError);
    const next = memoryOutput();
    await thread.write(plan(), next.output);
    expect(next.bytes().length).toBeGreaterThan(1000);
  });
});
