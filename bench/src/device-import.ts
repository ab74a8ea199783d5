import os from 'node:os';
import { DEVICES_IMPORT_PATH, type DeviceImportAnswer } from '@fieldlink/api/device';
import { toCsv } from '@fieldlink/domain/csv';
import type { Benchmark, BenchOptions, BenchSection, BenchTable } from './benchmark';
import { startDemoBenchApp } from './demo-app';
import { formatCount, formatMs } from './format';
import { median } from './percentile';

/**
 * Issue 35 item 6: a CSV file of 1,000 devices (name, serial, group path over the account's groups,
 * two tags) imported by ops@ through `POST /devices/import` of the real app (in-process `inject`, so
 * the network is not counted): the preview (every row checked, nothing written), then the import (every
 * device and its credentials written in one transaction). Goal: the import under 10 s.
 */

const USER = 'ops@fieldlink.test';
const ROWS = 1000;
const RUNS = 3;
const GOAL_MS = 10_000;
const GROUPS = ['Boiler Room', 'Cold Store', ''];

/** The file of one run: serials differ per run, so every run's rows are new. */
function importFile(run: number): string {
  return toCsv(
    ['name', 'serial', 'group path', 'tags'],
    Array.from({ length: ROWS }, (_, index) => [
      `Bench pump ${run}-${index + 1}`,
      `BENCH-${run}-${String(index + 1).padStart(5, '0')}`,
      GROUPS[index % GROUPS.length],
      `site=North ${index % 7}; batch=${run}`,
    ]),
  );
}

interface Run {
  previewMs: number;
  importMs: number;
  devices: number;
}

export const deviceImportBenchmark: Benchmark = {
  name: 'device-import',
  title: 'Importing 1,000 devices from a CSV file',
  async run(options: BenchOptions): Promise<BenchSection> {
    const tables: BenchTable[] = [];
    const findings: string[] = [];
    let failed = false;
    for (const dialect of options.dialects) {
      const bench = await startDemoBenchApp(dialect, options.postgresUrl, 'fieldlink_bench_import');
      try {
        const { jwt } = await bench.signIn(USER);
        const accountId = (
          await bench.db
            .selectFrom('accounts')
            .select('id')
            .where('name', '=', 'Acme Controls')
            .executeTakeFirstOrThrow()
        ).id;
        const call = async (csv: string, dryRun: boolean) => {
          const started = performance.now();
          const response = await bench.app.inject({
            method: 'POST',
            url: `/api/v1${DEVICES_IMPORT_PATH}`,
            headers: { authorization: jwt },
            payload: { accountId, csv, dryRun },
          });
          const ms = performance.now() - started;
          if (response.statusCode !== 200) throw new Error(`${response.statusCode} ${response.body}`);
          return { ms, answer: response.json<DeviceImportAnswer>() };
        };
        const runs: Run[] = [];
        for (let run = 1; run <= RUNS; run++) {
          const csv = importFile(run);
          const preview = await call(csv, true);
          if (preview.answer.rows.some((row) => row.errors.length > 0)) throw new Error('The bench file has errors');
          const done = await call(csv, false);
          runs.push({ previewMs: preview.ms, importMs: done.ms, devices: done.answer.devices.length });
          options.log(
            `device-import ${bench.label} run ${run}: preview ${formatMs(preview.ms)}, import ${formatMs(done.ms)}`,
          );
        }
        const importMedian = median(runs.map((run) => run.importMs));
        const met = importMedian < GOAL_MS;
        failed ||= !met;
        tables.push({
          caption: `${bench.label}: ${formatCount(ROWS)} rows a file, ${RUNS} files one after another`,
          columns: ['run', 'preview (check only)', 'import (written)', 'devices made'],
          rows: runs.map((run, index) => [
            String(index + 1),
            formatMs(run.previewMs),
            formatMs(run.importMs),
            formatCount(run.devices),
          ]),
        });
        findings.push(
          `${bench.label}: median import ${formatMs(importMedian)} against the goal of ${formatMs(GOAL_MS)}: ${met ? 'met' : 'NOT met'}.`,
        );
      } finally {
        await bench.close();
      }
    }
    return {
      method: [
        `ops@fieldlink.test imports a CSV file of ${formatCount(ROWS)} devices (name, serial, a group path over two groups and New Devices, two tags) into Acme Controls through \`POST /api/v1/devices/import\` of the real app on a fresh database (in-process \`inject\`: the network is not counted): first the preview (\`dryRun\`: every row read and checked, groups resolved, serials looked up, nothing written), then the import (one transaction: every device, its password hash and tags; the embedded broker reads credentials from the database). ${RUNS} files one after another, each of new serials, on ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown CPU'}). Goal: the import under 10 s.`,
        'Command: `npm run bench -- --only device-import` (add `--dialects sqlite` for one storage).',
      ],
      tables,
      findings,
      failed,
    };
  },
};
