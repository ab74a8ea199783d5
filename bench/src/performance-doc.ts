import type { Benchmark, BenchSection, BenchTable } from './benchmark';
import type { MachineFacts } from './machine';

/**
 * docs/PERFORMANCE.md is written by the runner: a header with the machine, then one section per
 * benchmark between markers. A run of some benchmarks (`--only`) replaces their sections and keeps
 * the others as they were, so each section always holds the latest measurement of its benchmark.
 */

export interface RunFacts {
  machine: MachineFacts;
  command: string;
  date: Date;
}

const startMarker = (name: string) => `<!-- bench:${name} -->`;
const endMarker = (name: string) => `<!-- /bench:${name} -->`;

function escapeCell(text: string): string {
  return text.replaceAll('|', '\\|').replaceAll('\n', ' ');
}

function renderTable(table: BenchTable): string {
  const lines: string[] = [];
  if (table.caption) lines.push(`**${table.caption}**`, '');
  lines.push(`| ${table.columns.map(escapeCell).join(' | ')} |`);
  lines.push(`|${table.columns.map(() => '---').join('|')}|`);
  for (const row of table.rows) lines.push(`| ${row.map(escapeCell).join(' | ')} |`);
  return lines.join('\n');
}

function machineLine({ machine }: RunFacts): string {
  return `${machine.cores} cores of ${machine.cpuModel}, ${machine.memoryGiB.toFixed(1)} GiB, Node.js ${machine.node}`;
}

export function renderSection(benchmark: Benchmark, section: BenchSection, run: RunFacts): string {
  const parts = [
    startMarker(benchmark.name),
    `## ${benchmark.title}`,
    `Measured ${run.date.toISOString()} with \`${run.command}\` on ${machineLine(run)}.`,
    ...section.method,
    ...section.tables.map(renderTable),
    ...section.findings,
    endMarker(benchmark.name),
  ];
  return parts.join('\n\n');
}

function renderHeader(run: RunFacts): string {
  const { machine } = run;
  return [
    '# Performance',
    'Written by `npm run bench` (`bench/src/run.ts`): change the benchmarks, not this file. Each section ' +
      'states when and with which command it was last measured. Run one benchmark, or shorter windows, with ' +
      '`npm run bench -- --only ingest --seconds 10`.',
    '## Machine of the latest run',
    [
      '| | |',
      '|---|---|',
      `| CPU | ${machine.cpuModel} |`,
      `| Cores | ${machine.cores} |`,
      `| Memory | ${machine.memoryGiB.toFixed(1)} GiB |`,
      `| OS | ${machine.os} |`,
      `| Node.js | ${machine.node} |`,
      `| Date | ${run.date.toISOString()} |`,
      `| Command | \`${run.command}\` |`,
    ].join('\n'),
  ].join('\n\n');
}

/** The sections of an existing document, by benchmark name. */
function existingSections(document: string): Map<string, string> {
  const sections = new Map<string, string>();
  for (const match of document.matchAll(/<!-- bench:([a-z0-9-]+) -->[\s\S]*?<!-- \/bench:\1 -->/g)) {
    sections.set(match[1]!, match[0]);
  }
  return sections;
}

/** The whole document: fresh header, `fresh` sections, and the previous text of the others. */
export function composeDocument(
  previous: string | null,
  registry: Benchmark[],
  fresh: Map<string, string>,
  run: RunFacts,
): string {
  const kept = previous ? existingSections(previous) : new Map<string, string>();
  const sections = registry
    .map((benchmark) => fresh.get(benchmark.name) ?? kept.get(benchmark.name))
    .filter((section): section is string => section !== undefined);
  return `${[renderHeader(run), ...sections].join('\n\n')}\n`;
}
