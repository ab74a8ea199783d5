import { shouldReplaceLatest } from '@fieldlink/domain/log-merge';
import type { LatestRow, LogRow } from './frame-writer';

/**
 * A batch's samples as columns, for the way to the SQLite writer thread (docs/decisions.md, issue 41
 * items 1 and 3): times and values in typed arrays whose memory is handed over, not copied, and the
 * device and channel of each sample as indexes into short lists. Structured-cloning one object per
 * sample cost the main thread about a tenth of its time (the profile's `postMessage`) and the writer
 * thread as much again to make the objects back.
 */
export interface SampleColumns {
  /** The devices, one per run of consecutive samples of the same device (a frame's samples are one). */
  devices: string[];
  /** How many consecutive samples each entry of `devices` has. */
  deviceRuns: Uint32Array;
  /** The distinct channel codes. */
  codes: string[];
  /** Each sample's channel, an index into `codes`. */
  codeOf: Uint32Array;
  t: Float64Array;
  value: Float64Array;
}

/**
 * The samples as columns, and the buffers to hand over with them (`postMessage`'s transfer list); null
 * when a time or value is not a number (a typed array would turn it into one: such a batch goes as
 * rows, so the database refuses it as it would in the main thread).
 */
export function toSampleColumns(rows: readonly LogRow[]): { columns: SampleColumns; transfer: ArrayBuffer[] } | null {
  const n = rows.length;
  const t = new Float64Array(n);
  const value = new Float64Array(n);
  const codeOf = new Uint32Array(n);
  const devices: string[] = [];
  const runs: number[] = [];
  const codes: string[] = [];
  const codeIndex = new Map<string, number>();
  let device: string | undefined;
  let runStart = 0;
  for (let i = 0; i < n; i += 1) {
    const row = rows[i]!;
    if (typeof row.t !== 'number' || typeof row.value !== 'number') return null;
    if (row.device_id !== device) {
      if (i > 0) runs.push(i - runStart);
      device = row.device_id;
      devices.push(device);
      runStart = i;
    }
    let code = codeIndex.get(row.code);
    if (code === undefined) {
      code = codes.length;
      codes.push(row.code);
      codeIndex.set(row.code, code);
    }
    codeOf[i] = code;
    t[i] = row.t;
    value[i] = row.value;
  }
  if (n > 0) runs.push(n - runStart);
  const deviceRuns = Uint32Array.from(runs);
  return {
    columns: { devices, deviceRuns, codes, codeOf, t, value },
    transfer: [t.buffer, value.buffer, codeOf.buffer, deviceRuns.buffer],
  };
}

/** The samples back as rows, in their order. */
export function fromSampleColumns({ devices, deviceRuns, codes, codeOf, t, value }: SampleColumns): LogRow[] {
  const rows = new Array<LogRow>(t.length);
  let device = -1;
  let left = 0;
  for (let i = 0; i < t.length; i += 1) {
    while (left === 0) left = deviceRuns[++device]!;
    left -= 1;
    rows[i] = { device_id: devices[device]!, code: codes[codeOf[i]!]!, t: t[i]!, value: value[i]! };
  }
  return rows;
}

/**
 * The latest value of each channel of `rows` as the frame writer keeps a batch's latest values when
 * every frame gives its samples as its latest values: by `shouldReplaceLatest` in their order (of
 * equal times the later), by device and then channel in the order first seen; each with its extra
 * from `withExtra` (the batch's latest values that have one).
 */
export function latestOfSamples(rows: readonly LogRow[], withExtra: readonly LatestRow[]): LatestRow[] {
  const devices = new Map<string, Map<string, LogRow>>();
  for (const row of rows) {
    let channels = devices.get(row.device_id);
    if (!channels) devices.set(row.device_id, (channels = new Map()));
    if (shouldReplaceLatest(channels.get(row.code), row)) channels.set(row.code, row);
  }
  const extras = new Map<string, Map<string, LatestRow>>();
  for (const row of withExtra) {
    let channels = extras.get(row.device_id);
    if (!channels) extras.set(row.device_id, (channels = new Map()));
    channels.set(row.code, row);
  }
  const latest: LatestRow[] = [];
  for (const [device, channels] of devices) {
    const extraOf = extras.get(device);
    for (const { device_id, code, t, value } of channels.values()) {
      const withOne = extraOf?.get(code);
      latest.push({ device_id, code, t, value, extra: withOne?.t === t ? withOne.extra : null });
    }
  }
  return latest;
}
