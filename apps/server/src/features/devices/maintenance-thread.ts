import { Worker } from 'node:worker_threads';
import type { MaintenanceRequest, MaintenanceRunner, MaintenanceSummary } from './log-maintenance';

/** What the maintenance thread is started with. */
export interface MaintenanceThreadInput {
  databaseUrl: string;
}

export type MaintenanceThreadRequest = { type: 'maintain'; request: MaintenanceRequest } | { type: 'stop' };

export type MaintenanceThreadAnswer =
  { type: 'maintained'; summary: MaintenanceSummary } | { type: 'failed'; message: string; code: string | null };

/**
 * Runs the log maintenance job on PostgreSQL in a worker thread with a connection of its own
 * (maintenance-worker.ts), started for the run and ended after it: the run's own work (reading,
 * encoding hourly blocks, packing roll-ups) then never holds the main thread, which parses every
 * frame ingest receives (docs/decisions.md, "Maintenance beside ingest"). One run at a time.
 */
export class MaintenanceThread implements MaintenanceRunner {
  private worker: Worker | null = null;

  constructor(private readonly databaseUrl: string) {}

  async maintain(request: MaintenanceRequest): Promise<MaintenanceSummary> {
    if (this.worker) throw new Error('A log maintenance run is already under way');
    const worker = new Worker(new URL('./maintenance-worker-boot.mjs', import.meta.url), {
      workerData: { databaseUrl: this.databaseUrl } satisfies MaintenanceThreadInput,
    });
    // The thread never keeps the process alive by itself.
    worker.unref();
    this.worker = worker;
    try {
      return await new Promise<MaintenanceSummary>((resolve, reject) => {
        worker.on('message', (answer: MaintenanceThreadAnswer) => {
          if (answer.type === 'maintained') resolve(answer.summary);
          else reject(Object.assign(new Error(answer.message), answer.code ? { code: answer.code } : {}));
        });
        worker.once('error', reject);
        worker.once('exit', (code) => reject(new Error(`The log maintenance thread ended (exit code ${code})`)));
        worker.postMessage({ type: 'maintain', request } satisfies MaintenanceThreadRequest);
      });
    } finally {
      this.worker = null;
      await worker.terminate();
    }
  }

  stopMaintenance(): void {
    this.worker?.postMessage({ type: 'stop' } satisfies MaintenanceThreadRequest);
  }
}
