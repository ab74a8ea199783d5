import type { ChannelLog } from '@fieldlink/api/device-logs';
import { binWidthOf } from '@fieldlink/api/device-logs';

/** Index of the first time at or after `t` in ascending `times`. */
function lowerBound(times: readonly number[], t: number): number {
  let low = 0;
  let high = times.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (times[mid]! < t) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * The log of one channel over `[start, end)` as `GET /device-logs` answers it: every sample when the
 * window holds no more than `binCount`, else bins of equal width keeping lowest, highest, mean and
 * last value (the contract's `BinnedChannelLog`), only bins that hold samples.
 */
export function channelLog(
  times: readonly number[],
  values: readonly number[],
  start: number,
  end: number,
  binCount: number,
): ChannelLog {
  const from = lowerBound(times, start);
  const to = lowerBound(times, end);
  if (to - from <= binCount) {
    return { kind: 'raw', t: times.slice(from, to), value: values.slice(from, to) };
  }
  const width = binWidthOf(start, end, binCount);
  const log: Extract<ChannelLog, { kind: 'bins' }> = { kind: 'bins', t: [], min: [], max: [], avg: [], last: [] };
  let bin = -1;
  let sum = 0;
  let count = 0;
  for (let index = from; index < to; index += 1) {
    const value = values[index]!;
    const current = Math.floor((times[index]! - start) / width);
    if (current !== bin) {
      if (count > 0) log.avg.push(sum / count);
      bin = current;
      sum = 0;
      count = 0;
      log.t.push(start + bin * width);
      log.min.push(value);
      log.max.push(value);
      log.last.push(value);
    }
    const last = log.t.length - 1;
    if (value < log.min[last]!) log.min[last] = value;
    if (value > log.max[last]!) log.max[last] = value;
    log.last[last] = value;
    sum += value;
    count += 1;
  }
  if (count > 0) log.avg.push(sum / count);
  return log;
}
