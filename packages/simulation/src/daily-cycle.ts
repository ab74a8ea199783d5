/** Time-of-day shapes shared by the plant models. Times are simulated unix milliseconds. */

const HOUR_MS = 3_600_000;

/** Hour of the day in [0, 24), at the site's offset from UTC. */
export function hourOfDay(timeMs: number, utcOffsetMinutes: number): number {
  const hours = (timeMs + utcOffsetMinutes * 60_000) / HOUR_MS;
  return ((hours % 24) + 24) % 24;
}

/** A bell around `centreHour` that wraps over midnight; 1 at the centre. */
export function hourBump(hour: number, centreHour: number, widthHours: number): number {
  let distance = Math.abs(hour - centreHour);
  if (distance > 12) distance = 24 - distance;
  return Math.exp(-0.5 * (distance / widthHours) ** 2);
}

/**
 * Outdoor air temperature: a daily sine with its low near 03:00 and its high near 15:00, the way
 * air temperature lags the sun.
 */
export function ambientTemperature(hour: number, mean: number, swing: number): number {
  return mean + swing * Math.sin((2 * Math.PI * (hour - 9)) / 24);
}

export function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/** Rounds to the resolution a real instrument reports, so values do not carry float dust. */
export function roundTo(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}
