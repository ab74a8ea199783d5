import { parentPort, workerData } from 'node:worker_threads';
import { openStorage } from '../../db/database';
import { DocumentError } from '../../documents/document-jobs';
import { FILE_CHUNK_BYTES, writableOf, type DocumentSink } from '../../documents/file-store';
import { writeReportDocument, type ReportPlan } from './report-document';
import type { ReportWorkerInput, ReportWorkerMessage, ReportWorkerRequest } from './report-thread';

// The report worker thread (report-thread.ts): writes the reports it is asked for, one at a time.

/** Chunks sent and not yet stored: enough to keep the storing thread busy, few enough to bound memory. */
const CHUNKS_IN_FLIGHT = 2;

const port = parentPort!;
const { databaseUrl } = workerData as ReportWorkerInput;
const storage = openStorage(databaseUrl);
const send = (message: ReportWorkerMessage, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

let inFlight = 0;
let onStored: (() => void) | null = null;

/** Gathers a document's bytes into chunks of a stored file's size and sends each to be stored. */
class PortSink implements DocumentSink {
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  async write(data: Buffer | string): Promise<void> {
    const buffer = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    if (buffer.length === 0) return;
    this.pending.push(buffer);
    this.pendingBytes += buffer.length;
    if (this.pendingBytes >= FILE_CHUNK_BYTES) await this.flush();
  }

  stream() {
    return writableOf(this);
  }

  async flush(): Promise<void> {
    if (this.pendingBytes === 0) return;
    // A fresh copy, so its memory moves to the other thread rather than being copied again.
    const bytes = new Uint8Array(this.pendingBytes);
    let at = 0;
    for (const buffer of this.pending) {
      bytes.set(buffer, at);
      at += buffer.length;
    }
    this.pending = [];
    this.pendingBytes = 0;
    while (inFlight >= CHUNKS_IN_FLIGHT) await new Promise<void>((resolve) => (onStored = resolve));
    inFlight += 1;
    send({ type: 'chunk', bytes }, [bytes.buffer]);
  }
}

async function write(plan: ReportPlan): Promise<void> {
  inFlight = 0;
  const sink = new PortSink();
  try {
    await writeReportDocument(storage.db, plan, {
      file: sink,
      progress: async (fraction) => send({ type: 'progress', fraction }),
    });
    await sink.flush();
    send({ type: 'done' });
  } catch (error) {
    send({
      type: 'failed',
      message: error instanceof Error ? error.message : String(error),
      forReader: error instanceof DocumentError,
    });
  }
}

port.on('message', (request: ReportWorkerRequest) => {
  if (request.type === 'write') {
    void write(request.plan);
  } else {
    inFlight -= 1;
    onStored?.();
    onStored = null;
  }
});
