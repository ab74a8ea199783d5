// The order of the end-to-end files (vitest.config.ts, `sequence.sequencer`): longest first, the heavy
// ones one after another in one lane while the others share the rest. Vitest hands its workers the
// files in the order the sequencer returns, each to the first worker free; its default order (longest
// first) started the two longest files together and, lane by lane, paired `scenes` and `variants`
// with heavy files (docs/decisions.md, "Issue 37 item 7: the e2e files' order").
import { statSync } from 'node:fs';
import { basename } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import durations from './e2e-durations.json' with { type: 'json' };

/** A file to schedule and what it is expected to cost (any unit, the same for all). */
export interface CostedFile<T> {
  file: T;
  cost: number;
}

/**
 * Expected costs: a file's duration where known, else its size scaled by the known files' seconds per
 * byte (bytes alone when none is known).
 */
export function expectedCosts<T>(
  files: readonly T[],
  known: (file: T) => { duration?: number; size?: number },
): CostedFile<T>[] {
  const facts = files.map((file) => ({ file, ...known(file) }));
  const measured = facts.filter(
    (fact): fact is typeof fact & { duration: number; size: number } =>
      fact.duration !== undefined && fact.duration > 0 && fact.size !== undefined && fact.size > 0,
  );
  const measuredBytes = measured.reduce((sum, fact) => sum + fact.size, 0);
  const perByte = measuredBytes > 0 ? measured.reduce((sum, fact) => sum + fact.duration, 0) / measuredBytes : 1;
  return facts.map(({ file, duration, size }) => ({
    file,
    cost: duration !== undefined && duration > 0 ? duration : (size ?? 0) * perByte,
  }));
}

/**
 * The files in the order to hand them to `lanes` workers, each file to the first worker free. The heavy
 * files are the longest ones that fit one after another in one lane's share of the whole (the first
 * always counts): they run one at a time, longest first, each beside the lighter files, which fill the
 * other lanes longest first. Once only heavy files are left they run side by side, as nothing else can.
 * Planned with the expected costs; ties keep the input order.
 */
export function planOrder<T>(files: readonly CostedFile<T>[], lanes: number): T[] {
  const byCost = files
    .map((entry, index) => ({ ...entry, index }))
    .sort((a, b) => b.cost - a.cost || a.index - b.index);
  const share = byCost.reduce((sum, entry) => sum + entry.cost, 0) / Math.max(1, lanes);
  let heavyCount = 0;
  for (let sum = 0; heavyCount < byCost.length; heavyCount += 1) {
    sum += byCost[heavyCount]!.cost;
    if (heavyCount > 0 && sum > share) break;
  }
  const heavy = byCost.slice(0, heavyCount);
  const light = byCost.slice(heavyCount);
  const workers = Array.from({ length: Math.max(1, lanes) }, () => ({ freeAt: 0, heavy: false }));
  const order: T[] = [];
  while (heavy.length + light.length > 0) {
    // The first worker free takes the next file, as vitest's pool does.
    const worker = workers.reduce((first, next) => (next.freeAt < first.freeAt ? next : first));
    const heavyBeside = workers.some((other) => other !== worker && other.heavy && other.freeAt > worker.freeAt);
    const takesHeavy = heavy.length > 0 && (!heavyBeside || light.length === 0);
    const next = (takesHeavy ? heavy : light).shift()!;
    worker.freeAt += next.cost;
    worker.heavy = takesHeavy;
    order.push(next.file);
  }
  return order;
}

/** The project whose files {@link E2eOrderSequencer} orders. */
const E2E_PROJECT = 'e2e';

/**
 * Vitest's own order (projects by `groupOrder`, then longest first by its results cache), with the e2e
 * project's files put in {@link planOrder}'s order, planned with their durations in the last full run. Vitest takes one sequencer for the whole run, so it
 * sits at the root of the configuration and leaves the other projects' files where vitest puts them.
 */
export class E2eOrderSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const e2e = sorted.filter((spec) => spec.project.name === E2E_PROJECT);
    if (e2e.length < 2) return sorted;
    const lanes = e2e[0]!.project.config.maxWorkers;
    // Seconds in the last full run on main (scripts/e2e-durations.json), the same on a fresh clone as
    // here: vitest's results cache is empty on a fresh clone and holds single-file runs elsewhere.
    const seconds: Record<string, number | undefined> = durations;
    const costs = expectedCosts(e2e, (spec) => ({
      duration: seconds[basename(spec.moduleId)],
      size: statSync(spec.moduleId).size,
    }));
    const planned = planOrder(costs, lanes);
    let next = 0;
    return sorted.map((spec) => (spec.project.name === E2E_PROJECT ? planned[next++]! : spec));
  }
}
