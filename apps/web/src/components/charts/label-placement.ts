/**
 * Where a marker's label starts (canvas x): after the marker, `gap` to its right; where that would
 * run past the plot's right edge, before it, ending `gap` to its left; never before the plot's left
 * edge. So an annotation near "now" reads whole ("Tasting 3.5/5"), not cut at the edge ("Ta").
 */
export function markerLabelX(anchor: number, gap: number, width: number, left: number, right: number): number {
  const after = anchor + gap;
  if (after + width <= right) return after;
  return Math.max(left, anchor - gap - width);
}
