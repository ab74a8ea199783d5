/** Device locations (specification core §5). */

/** Coordinates taken from a chosen address are rounded to this many decimals (about 0.1 m). */
export const COORDINATE_DECIMALS = 6;

/** A location as an edit draft holds it: the inputs may be empty text while the user types. */
export interface LocationDraft {
  lat?: number | string | null;
  lng?: number | string | null;
}

function isPresent(coordinate: number | string | null | undefined): boolean {
  if (typeof coordinate === 'number') return Number.isFinite(coordinate);
  return typeof coordinate === 'string' && coordinate.trim() !== '';
}

/**
 * True when both lat and lng are present and non-empty; only then is a draft location saved. Range
 * checks are the API schema's job.
 */
export function isValidLocation(location: LocationDraft | null | undefined): boolean {
  return location != null && isPresent(location.lat) && isPresent(location.lng);
}

/** A coordinate rounded to {@link COORDINATE_DECIMALS} decimals. */
export function roundCoordinate(coordinate: number): number {
  return Number(coordinate.toFixed(COORDINATE_DECIMALS));
}
