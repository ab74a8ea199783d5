import { Type, type Static } from '@sinclair/typebox';
import { DAY_MS, HOUR_MS } from '@fieldlink/domain/timestamps';
import { EntityId, Timestamp } from './fields';

/** The one log format of core §7: samples grouped by channel. */
export const DEVICE_LOGS_FORMAT = 'GROUPED_BY_CHANNEL';
/** Most bins a caller may ask for per channel. */
export const MAX_BIN_COUNT = 10_000;
/** Most channels in one call: a chart of a hundred channels is one call. */
export const MAX_LOG_CHANNELS = 100;
/** Longest window of one call: ten years, in ms. */
export const MAX_LOG_WINDOW_MS = 10 * 366 * 24 * 3600 * 1000;

/**
 * `GET /device-logs`: the logs of some channels of one device over `[start, end)` (unix ms), at most
 * `binCount` points per channel.
 */
export const DeviceLogsQuery = Type.Object(
  {
    format: Type.Literal(DEVICE_LOGS_FORMAT),
    deviceId: EntityId,
    /** Comma-separated channel codes (`c1,sp2`). */
    channels: Type.String({ minLength: 1, maxLength: 1000 }),
    start: Timestamp(),
    end: Timestamp({ minimum: 1 }),
    binCount: Type.Integer({ minimum: 1, maximum: MAX_BIN_COUNT }),
  },
  { additionalProperties: false },
);
export type DeviceLogsQuery = Static<typeof DeviceLogsQuery>;

/** Every sample of the window, oldest first: the window held no more samples than bins. */
export const RawChannelLog = Type.Object({
  kind: Type.Literal('raw'),
  t: Type.Array(Type.Number()),
  value: Type.Array(Type.Number()),
});
export type RawChannelLog = Static<typeof RawChannelLog>;

/**
 * The window cut into bins of `binWidth` ms (see {@link logBinGrid}); only bins holding samples are
 * listed, oldest first. Each keeps the lowest, highest, mean and last value, so a chart of a year still
 * shows every spike (the envelope) and the line through the last values.
 */
export const BinnedChannelLog = Type.Object({
  kind: Type.Literal('bins'),
  /** Start of each bin (the first one's clipped to the window's start). */
  t: Type.Array(Type.Number()),
  min: Type.Array(Type.Number()),
  max: Type.Array(Type.Number()),
  avg: Type.Array(Type.Number()),
  last: Type.Array(Type.Number()),
});
export type BinnedChannelLog = Static<typeof BinnedChannelLog>;

export const ChannelLog = Type.Union([RawChannelLog, BinnedChannelLog]);
export type ChannelLog = Static<typeof ChannelLog>;

export const DeviceLogsAnswer = Type.Object({
  deviceId: Type.String(),
  start: Type.Number(),
  end: Type.Number(),
  binCount: Type.Number(),
  binWidth: Type.Number({ description: 'width of a bin, ms' }),
  /** Per requested channel code; a channel without samples in the window answers an empty raw log. */
  channels: Type.Record(Type.String(), ChannelLog),
});
export type DeviceLogsAnswer = Static<typeof DeviceLogsAnswer>;

/** Bin width of a window: the window split into at most `binCount` bins of whole milliseconds. */
export function binWidthOf(start: number, end: number, binCount: number): number {
  return Math.max(1, Math.ceil((end - start) / binCount));
}

/** Roll-up levels of the log, coarsest first: a UTC day and an hour, in ms. */
export const LOG_ROLLUP_LEVELS_MS = [DAY_MS, HOUR_MS] as const;
/** A roll-up level serves a window when its whole buckets make bins at most this much wider than asked. */
const MAX_BIN_WIDENING = 1.5;

/** How a window is cut into bins: bin `i` covers `[origin + i·width, origin + (i+1)·width)` within the window. */
export interface LogBinGrid {
  /** Width of a bin, ms. */
  width: number;
  /** Start of bin 0, at or before the window's start. */
  origin: number;
  /** The roll-up level (ms) whose buckets make the bins, or 0 when the bins are cut from the samples. */
  level: number;
}

/**
 * The bins of a window of `GET /device-logs`. A narrow window is cut from its start into bins of
 * {@link binWidthOf}. A window whose bins span an hour or more is answered from the coarsest roll-up
 * level whose whole buckets still give bins at most 1.5 times as wide as asked: the width is rounded up
 * to whole buckets and the bins lie on whole multiples of it since the epoch (as `GROUP BY time()` of
 * time-series databases does), so every bucket falls in one bin and the answer equals the one computed
 * from the samples. At most `binCount` bins either way.
 */
export function logBinGrid(start: number, end: number, binCount: number): LogBinGrid {
  const requested = binWidthOf(start, end, binCount);
  for (const level of LOG_ROLLUP_LEVELS_MS) {
    let width = Math.ceil(requested / level) * level;
    if (requested < level || width > requested * MAX_BIN_WIDENING) continue;
    while (Math.ceil(end / width) - Math.floor(start / width) > binCount) width += level;
    return { level, width, origin: Math.floor(start / width) * width };
  }
  return { level: 0, width: requested, origin: start };
}
