/**
 * Distances on the earth for the device table's geo-distance filter and column (specification core
 * §5, §9): great-circle distance on a sphere of radius 6371 km, shown in kilometres or miles.
 */

/** Mean earth radius the specification names, in kilometres. */
export const EARTH_RADIUS_KM = 6371;
/** Miles per kilometre (§9). */
export const MILES_PER_KM = 0.621371;
/** Decimals a distance is shown with (§9). */
export const DISTANCE_DECIMALS = 3;

/** Units a geo-distance filter can be written in (§3: miles, kilometers). */
export const DISTANCE_UNITS = ['kilometers', 'miles'] as const;
export type DistanceUnit = (typeof DISTANCE_UNITS)[number];

/** A point in degrees. */
export interface GeoPoint {
  lat: number;
  lng: number;
}

const RADIANS = Math.PI / 180;

/**
 * Great-circle distance in kilometres (haversine formula, which stays accurate for the short
 * distances a fleet filter is mostly used for, where the spherical law of cosines loses digits).
 */
export function distanceKm(from: GeoPoint, to: GeoPoint): number {
  const dLat = (to.lat - from.lat) * RADIANS;
  const dLng = (to.lng - from.lng) * RADIANS;
  const h =
    Math.sin(dLat / 2) ** 2 + Math.cos(from.lat * RADIANS) * Math.cos(to.lat * RADIANS) * Math.sin(dLng / 2) ** 2;
  // min() guards against rounding pushing h a hair above 1 for antipodal points.
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** A distance in kilometres expressed in `unit`. */
export function kmIn(km: number, unit: DistanceUnit): number {
  return unit === 'miles' ? km * MILES_PER_KM : km;
}

/** Great-circle distance in `unit`. */
export function distanceIn(from: GeoPoint, to: GeoPoint, unit: DistanceUnit): number {
  return kmIn(distanceKm(from, to), unit);
}

/** A distance as the table shows it: three decimals (`12.346`). */
export function formatDistance(distance: number): string {
  return distance.toFixed(DISTANCE_DECIMALS);
}

/** True for a usable point: both coordinates finite and within range. */
export function isGeoPoint(point: { lat?: unknown; lng?: unknown } | null | undefined): point is GeoPoint {
  if (point == null) return false;
  const { lat, lng } = point;
  return (
    typeof lat === 'number' &&
    typeof lng === 'number' &&
    Number.isFinite(lat) &&
    Number.isFinite(lng) &&
    Math.abs(lat) <= 90 &&
    Math.abs(lng) <= 180
  );
}
