/**
 * Gaps in a chart's data (issue 36 item 4): a pause in a series' points is a gap, drawn as a break in
 * its line, when it is much longer than the spacing of the points around it. Comparing with the
 * neighbours, not with one fixed width, keeps a series whose older part was logged every 30 minutes
 * and whose last day every 5 seconds a line throughout, while a device's hour offline still breaks it.
 */

/** A pause is a gap when longer than this many times the usual spacing around it. */
const GAP_FACTOR = 3;
/** Spacings on each side of a pause that make "the usual spacing" around it (their median). */
const GAP_NEIGHBOURS = 5;

function median(values: number[]): number {
  values.sort((a, b) => a - b);
  const middle = values.length >> 1;
  return values.length % 2 === 1 ? values[middle]! : (values[middle - 1]! + values[middle]!) / 2;
}

/**
 * The indices `i` of the points that follow a gap (the pause from `times[i - 1]` to `times[i]`), for
 * times in ascending order. A pause is a gap when longer than {@link GAP_FACTOR} times the larger of
 * `minGap` (a bin's width: empty bins between filled ones are no gap by themselves) and the median of
 * the up to {@link GAP_NEIGHBOURS} spacings on each side of it. With neither (two points, no
 * `minGap`), nothing is a gap.
 */
export function gapIndices(times: readonly number[], minGap = 0): number[] {
  const spacing = (i: number) => times[i]! - times[i - 1]!;
  const gaps: number[] = [];
  for (let i = 1; i < times.length; i += 1) {
    const around: number[] = [];
    for (let j = Math.max(1, i - GAP_NEIGHBOURS); j < i; j += 1) around.push(spacing(j));
    for (let j = i + 1; j <= Math.min(times.length - 1, i + GAP_NEIGHBOURS); j += 1) around.push(spacing(j));
    const usual = Math.max(minGap, around.length > 0 ? median(around) : 0);
    if (usual > 0 && spacing(i) > GAP_FACTOR * usual) gaps.push(i);
  }
  return gaps;
}
