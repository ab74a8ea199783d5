import { parentPort, workerData } from 'node:worker_threads';
import { openStorage } from '../../db/database';
import { LogMaintenance } from './log-maintenance';
import type { MaintenanceThreadAnswer, MaintenanceThreadInput, MaintenanceThreadRequest } from './maintenance-thread';

// The log maintenance thread (maintenance-thread.ts): one run on a connection of its own, then it closes
// the connection and answers.

const port = parentPort!;
const { databaseUrl } = workerData as MaintenanceThreadInput;
const storage = openStorage(databaseUrl);
let job: LogMaintenance | null = null;

async function maintain({ now, retention, share }: Extract<MaintenanceThreadRequest, { type: 'maintain' }>['request']) {
  let answer: MaintenanceThreadAnswer;
  try {
    job = new LogMaintenance(storage.db, storage.dialect, retention, quietLogger, { now: () => now, workShare: share });
    answer = { type: 'maintained', summary: await job.run() };
  } catch (error) {
    const { message, code } = error as { message?: unknown; code?: unknown };
    answer = { type: 'failed', message: String(message ?? error), code: typeof code === 'string' ? code : null };
  }
  await storage.close().catch(() => undefined);
  port.postMessage(answer);
}

/** The job logs its run where it was queued (the main thread); nothing is logged here. */
const quietLogger = { info: () => undefined, warn: () => undefined };

port.on('message', (request: MaintenanceThreadRequest) => {
  if (request.type === 'maintain') void maintain(request.request);
  else job?.stop();
});
