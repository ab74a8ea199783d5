import type { Benchmark, BenchSection, BenchTable } from './benchmark';
import type { MachineFacts } from './machine';

/**
 * docs/PERFORMANCE.md is written by the runner: a header with the machine, then one section per
 * benchmark between markers. A run of some benchmarks (`--only`) replaces their sections and keeps
 * the others as they were, so each section always holds the latest measurement of its benchmark; the
 * hand-written sections between them are kept too.
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

/**
 * The whole document: a fresh header, then the previous document with the `fresh` sections in place
 * of their previous text. Everything else is kept where it was: the other benchmarks' sections and the
 * hand-written sections between them (figures measured outside `npm run bench`). A fresh section with
 * no previous text goes after the previous section of the registry that the document holds (first, if
 * none).
 */
export function composeDocument(
  previous: string | null,
  registry: Benchmark[],
  fresh: Map<string, string>,
  run: RunFacts,
): string {
  const header = renderHeader(run);
  const firstMarker = previous?.search(/<!-- bench:[a-z0-9-]+ -->/) ?? -1;
  if (previous === null || firstMarker < 0) {
    const sections = registry.map((benchmark) => fresh.get(benchmark.name)).filter((text) => text !== undefined);
    return `${[header, ...sections].join('\n\n')}\n`;
  }
  let body = previous.slice(firstMarker).trimEnd();
  const kept = existingSections(body);
  registry.forEach((benchmark, index) => {
    const section = fresh.get(benchmark.name);
    if (section === undefined) return;
    const old = kept.get(benchmark.name);
    if (old !== undefined) {
      body = body.replace(old, () => section);
      return;
    }
    const before = registry
      .slice(0, index)
      .reverse()
      .map((other) => existingSections(body).get(other.name))
      .find((text) => text !== undefined);
    if (before === undefined) body = `${section}\n\n${body}`;
    else body = body.replace(before, () => `${before}\n\n${section}`);
  });
  return `${header}\n\n${body}\n`;
}
