import type { DeviceLogsAnswer } from '@fieldlink/api/device-logs';

/** One channel of a chart: a line, and for binned logs the band between each bin's min and max. */
export interface AlignedSeries {
  code: string;
  /** Raw values, or each bin's mean. */
  line: (number | null)[];
  /** Present for binned logs. */
  band: { min: (number | null)[]; max: (number | null)[] } | null;
}

/** Logs of several channels on one time axis (uPlot's layout): x in unix seconds, gaps as null. */
export interface AlignedLogs {
  x: number[];
  series: AlignedSeries[];
}

/**
 * Puts the channels of a log answer on one shared, sorted time axis. Each channel keeps its own
 * points; where another channel has a point it has not, its value is null (a gap, not a zero).
 */
export function alignLogs(answer: DeviceLogsAnswer, codes: readonly string[]): AlignedLogs {
  const times = new Set<number>();
  for (const code of codes) for (const t of answer.channels[code]?.t ?? []) times.add(t);
  const x = [...times].sort((a, b) => a - b);
  const index = new Map(x.map((t, i) => [t, i]));
  const series = codes.map((code): AlignedSeries => {
    const log = answer.channels[code];
    const line: (number | null)[] = new Array<number | null>(x.length).fill(null);
    if (!log) return { code, line, band: null };
    if (log.kind === 'raw') {
      log.t.forEach((t, i) => (line[index.get(t)!] = log.value[i] ?? null));
      return { code, line, band: null };
    }
    const min: (number | null)[] = new Array<number | null>(x.length).fill(null);
    const max: (number | null)[] = new Array<number | null>(x.length).fill(null);
    log.t.forEach((t, i) => {
      const at = index.get(t)!;
      line[at] = log.avg[i] ?? null;
      min[at] = log.min[i] ?? null;
      max[at] = log.max[i] ?? null;
    });
    return { code, line, band: { min, max } };
  });
  return { x: x.map((t) => t / 1000), series };
}

/** True when the answer holds no point at all. */
export function isEmptyLogs(answer: DeviceLogsAnswer): boolean {
  return Object.values(answer.channels).every((log) => log.t.length === 0);
}
