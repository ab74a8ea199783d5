/**
 * The value maths of scene widgets (application spec §3 Widget, §4 widgets and live data, §9): where a
 * value sits between a widget's min and max, which arc segment colours it, how a setpoint steps by
 * its increment, how numbers, gravities and headings are shown. The web's widget views only draw what
 * these functions decide.
 */

/** Step of an up/down control or slider when the widget sets no increment. */
export const DEFAULT_INCREMENT = 1;

/** An arc segment of §3: values up to `endValue` take `color` (and may carry a label). */
export interface ArcSegmentLike {
  endValue: number;
  color: string;
  text?: string;
}

/** A segment as a band of the arc, in fractions (0..1) of min..max. */
export interface ArcBand {
  from: number;
  to: number;
  color: string;
}

function finite(value: number): boolean {
  return typeof value === 'number' && Number.isFinite(value);
}

/** The value held inside min..max (min wins when the range is inverted or empty). */
export function clampToRange(value: number, min: number, max: number): number {
  if (!finite(value)) return min;
  if (!(max > min)) return min;
  return Math.min(max, Math.max(min, value));
}

/**
 * Where a value sits between min and max, 0..1, clamped: the fill of a tank, bar or battery and the
 * sweep of a gauge. An empty or inverted range, or a value that is not a number, gives 0.
 */
export function valueFraction(value: number, min: number, max: number): number {
  if (!finite(value) || !finite(min) || !finite(max) || !(max > min)) return 0;
  return (clampToRange(value, min, max) - min) / (max - min);
}

function sortedSegments<S extends ArcSegmentLike>(segments: readonly S[]): S[] {
  return segments.filter((s) => finite(s.endValue)).sort((a, b) => a.endValue - b.endValue);
}

/**
 * The arc segment a value falls in: the first (by end value) whose end value is at or above the
 * value; above every end value, the last one. Null without segments.
 */
export function arcSegmentFor<S extends ArcSegmentLike>(value: number, segments: readonly S[]): S | null {
  const sorted = sortedSegments(segments);
  if (sorted.length === 0 || !finite(value)) return null;
  return sorted.find((s) => value <= s.endValue) ?? sorted[sorted.length - 1] ?? null;
}

/** The colour of a value from the widget's arc segments, or null when it has none. */
export function arcSegmentColor(value: number, segments: readonly ArcSegmentLike[]): string | null {
  return arcSegmentFor(value, segments)?.color ?? null;
}

/**
 * The segments as bands along min..max: each runs from the previous end value (min for the first) to
 * its own, clipped to the range; bands that fall outside it vanish. The last band reaches max, so the
 * scale is coloured to its end.
 */
export function arcSegmentBands(segments: readonly ArcSegmentLike[], min: number, max: number): ArcBand[] {
  if (!(max > min)) return [];
  const bands: ArcBand[] = [];
  const sorted = sortedSegments(segments);
  let start = min;
  sorted.forEach((segment, index) => {
    const end = index === sorted.length - 1 ? Math.max(max, segment.endValue) : segment.endValue;
    const from = valueFraction(start, min, max);
    const to = valueFraction(end, min, max);
    if (to > from) bands.push({ from, to, color: segment.color });
    start = Math.max(start, end);
  });
  return bands;
}

/** Decimals of an increment (`0.1` -> 1, `0.25` -> 2, `5` -> 0), at most 6. */
export function incrementDecimals(increment: number): number {
  if (!finite(increment) || increment <= 0) return 0;
  for (let decimals = 0; decimals < 6; decimals += 1) {
    const scaled = increment * 10 ** decimals;
    if (Math.abs(scaled - Math.round(scaled)) < 1e-9) return decimals;
  }
  return 6;
}

function roundTo(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}

function usableIncrement(increment: number | null | undefined): number {
  return typeof increment === 'number' && finite(increment) && increment > 0 ? increment : DEFAULT_INCREMENT;
}

/**
 * The next setpoint of an up/down control: one increment up (+1) or down (-1) from the current value,
 * held in min..max and rounded to the increment's decimals (so 0.1 + 0.2 reads 0.3). Without a
 * current value the step starts from min.
 */
export function stepSetpoint(
  current: number | null | undefined,
  direction: 1 | -1,
  increment: number | null | undefined,
  min: number,
  max: number,
): number {
  const step = usableIncrement(increment);
  const from = typeof current === 'number' && finite(current) ? current : min;
  return roundTo(clampToRange(from + direction * step, min, max), incrementDecimals(step));
}

/** A slider position snapped to the increment counted from min, and held in min..max. */
export function snapToIncrement(value: number, increment: number | null | undefined, min: number, max: number): number {
  const step = usableIncrement(increment);
  const snapped = min + Math.round((clampToRange(value, min, max) - min) / step) * step;
  return roundTo(clampToRange(snapped, min, max), incrementDecimals(step));
}

/**
 * Decimals to show for a value when the widget names none: by magnitude, so a big reading is not
 * cluttered and a small one keeps its detail (1234 -> 0, 12.3 -> 1, 0.42 -> 2).
 */
export function autoDecimals(value: number): number {
  const magnitude = Math.abs(value);
  if (magnitude >= 1000) return 0;
  if (magnitude >= 10) return 1;
  return 2;
}

const numberFormats = new Map<string, Intl.NumberFormat>();

/** One formatter per locale and digits: making one costs far more than formatting a number with it. */
function numberFormat(locale: string | undefined, minimumFractionDigits: number, maximumFractionDigits: number) {
  const key = `${locale ?? ''}|${minimumFractionDigits}|${maximumFractionDigits}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, { minimumFractionDigits, maximumFractionDigits });
    numberFormats.set(key, format);
  }
  return format;
}

/**
 * A widget's number as text: with the given decimals, else automatic ones with trailing zeros
 * dropped (`21.50` -> `21.5`, `20.00` -> `20`), grouped by the locale. Not a number: an em dash.
 */
export function formatWidgetNumber(value: number, decimals?: number | null, locale?: string): string {
  if (!finite(value)) return '—';
  const fixed = typeof decimals === 'number' && decimals >= 0;
  const digits = fixed ? Math.min(decimals, 10) : autoDecimals(value);
  const text = numberFormat(locale, fixed ? digits : 0, digits).format(value);
  // -0 and values that round to zero read as 0, not -0.
  return /^-0([.,]0*)?$/.test(text) ? text.slice(1) : text;
}

/** How many of a signal widget's bars are lit: the fraction of min..max, rounded up, 0 at or below min. */
export function signalBarsLit(value: number, min: number, max: number, bars: number): number {
  const fraction = valueFraction(value, min, max);
  return fraction <= 0 ? 0 : Math.min(bars, Math.ceil(fraction * bars - 1e-9));
}

/** Level tones of a battery (or any fill without arc segments). */
export type LevelTone = 'danger' | 'warning' | 'success';

/** A battery at or below this fraction is low (red). */
export const BATTERY_LOW_FRACTION = 0.2;
/** A battery at or below this fraction is getting low (amber). */
export const BATTERY_WARNING_FRACTION = 0.4;

/** The tone of a battery level, 0..1. */
export function batteryTone(fraction: number): LevelTone {
  if (fraction <= BATTERY_LOW_FRACTION) return 'danger';
  if (fraction <= BATTERY_WARNING_FRACTION) return 'warning';
  return 'success';
}

/** A channel value read as on or off: any value but 0 is on. */
export function isOnValue(value: number | null | undefined): boolean {
  return typeof value === 'number' && finite(value) && value !== 0;
}

/** A heading in degrees, held in 0 (inclusive) .. 360 (exclusive); the offset turns the sensor's zero. */
export function normaliseHeading(degrees: number, offset = 0): number {
  if (!finite(degrees)) return 0;
  const turned = (((degrees + (finite(offset) ? offset : 0)) % 360) + 360) % 360;
  return roundTo(turned, 6) === 360 ? 0 : roundTo(turned, 6);
}

const COMPASS_POINTS = [
  'N',
  'NNE',
  'NE',
  'ENE',
  'E',
  'ESE',
  'SE',
  'SSE',
  'S',
  'SSW',
  'SW',
  'WSW',
  'W',
  'WNW',
  'NW',
  'NNW',
] as const;
export type CompassPoint = (typeof COMPASS_POINTS)[number];

/** The 16-point compass name of a heading (`0` -> `N`, `100` -> `E`, `350` -> `N`). */
export function compassPoint(degrees: number): CompassPoint {
  const index = Math.round(normaliseHeading(degrees) / 22.5) % COMPASS_POINTS.length;
  return COMPASS_POINTS[index] ?? 'N';
}

/** A fan's slowest and fastest turn, seconds per revolution. */
export const FAN_SLOWEST_TURN_S = 2.4;
export const FAN_FASTEST_TURN_S = 0.4;

/**
 * Seconds per revolution of a fan widget: null when it is off (value 0 or below, or not a number),
 * else from slowest at the bottom of min..max to fastest at max. An on/off channel (1 on a 0..1 range)
 * turns at full speed.
 */
export function fanTurnSeconds(value: number, min: number, max: number): number | null {
  if (!finite(value) || value <= 0) return null;
  const fraction = valueFraction(value, min, max);
  return roundTo(FAN_SLOWEST_TURN_S - fraction * (FAN_SLOWEST_TURN_S - FAN_FASTEST_TURN_S), 3);
}

/** Spray zones a manual spray widget can start (§8 names zones 1 and 2). */
export const SPRAY_ZONES = [1, 2] as const;

/**
 * The zone a manual spray widget starts, kept in the widget's `value`: 1 or 2, else zone 1.
 */
export function sprayZoneOf(widgetValue: unknown): (typeof SPRAY_ZONES)[number] {
  const zone = typeof widgetValue === 'string' ? Number(widgetValue) : widgetValue;
  return zone === 2 ? 2 : 1;
}

/** The value a button widget sends while pressed, kept in the widget's `value`: a number, else 1. */
export function buttonPressValue(widgetValue: unknown): number {
  const value = typeof widgetValue === 'string' && widgetValue.trim() !== '' ? Number(widgetValue) : widgetValue;
  return typeof value === 'number' && finite(value) ? value : 1;
}

/** A compass widget's offset in degrees, kept in the widget's `value`: a number, else 0. */
export function compassOffsetOf(widgetValue: unknown): number {
  const value = typeof widgetValue === 'string' && widgetValue.trim() !== '' ? Number(widgetValue) : widgetValue;
  return typeof value === 'number' && finite(value) ? value : 0;
}

/**
 * Apparent attenuation of a batch in percent: how much of the original gravity's extract is gone,
 * (OG − SG) / (OG − 1) × 100. Null when the original gravity is not above water's 1.
 */
export function apparentAttenuation(originalGravity: number, currentGravity: number): number | null {
  if (!finite(originalGravity) || !finite(currentGravity) || originalGravity <= 1) return null;
  return ((originalGravity - currentGravity) / (originalGravity - 1)) * 100;
}
