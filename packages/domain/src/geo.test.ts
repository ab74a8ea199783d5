import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { distanceIn, distanceKm, EARTH_RADIUS_KM, formatDistance, isGeoPoint, kmIn, MILES_PER_KM } from './geo';

const DALLAS = { lat: 32.7767, lng: -96.797 };
const FORT_WORTH = { lat: 32.7555, lng: -97.3308 };

describe('distanceKm', () => {
  it.each([
    ['the same point', DALLAS, DALLAS, 0],
    ['one degree of latitude', { lat: 0, lng: 0 }, { lat: 1, lng: 0 }, (Math.PI / 180) * EARTH_RADIUS_KM],
    ['one degree of longitude on the equator', { lat: 0, lng: 0 }, { lat: 0, lng: 1 }, 111.19492664455873],
    ['pole to pole', { lat: 90, lng: 0 }, { lat: -90, lng: 0 }, Math.PI * EARTH_RADIUS_KM],
    ['antipodes on the equator', { lat: 0, lng: 0 }, { lat: 0, lng: 180 }, Math.PI * EARTH_RADIUS_KM],
    // Reference from the spherical law of cosines, an independent formula.
    ['Dallas to Fort Worth', DALLAS, FORT_WORTH, 49.967146],
  ])('%s', (_label, from, to, km) => expect(distanceKm(from, to)).toBeCloseTo(km, 3));

  it('is symmetric and never negative', () => {
    const point = fc.record({
      lat: fc.double({ min: -90, max: 90, noNaN: true }),
      lng: fc.double({ min: -180, max: 180, noNaN: true }),
    });
    fc.assert(
      fc.property(point, point, (a, b) => {
        const d = distanceKm(a, b);
        expect(d).toBeGreaterThanOrEqual(0);
        expect(d).toBeLessThanOrEqual(Math.PI * EARTH_RADIUS_KM + 1e-6);
        expect(d).toBeCloseTo(distanceKm(b, a), 9);
      }),
    );
  });
});

describe('units and display', () => {
  it('converts kilometres to miles with the factor 0.621371', () => {
    expect(MILES_PER_KM).toBe(0.621371);
    expect(kmIn(100, 'miles')).toBeCloseTo(62.1371, 9);
    expect(kmIn(100, 'kilometers')).toBe(100);
    expect(distanceIn(DALLAS, FORT_WORTH, 'miles')).toBeCloseTo(distanceKm(DALLAS, FORT_WORTH) * 0.621371, 9);
  });

  it.each([
    [12.34567, '12.346'],
    [0, '0.000'],
    [1, '1.000'],
    [0.0004, '0.000'],
    [1234.5, '1234.500'],
  ])('shows %s as %s (3 decimals)', (distance, shown) => expect(formatDistance(distance)).toBe(shown));

  it.each([
    [{ lat: 1, lng: 2 }, true],
    [{ lat: 91, lng: 0 }, false],
    [{ lat: 0, lng: -181 }, false],
    [{ lat: Number.NaN, lng: 0 }, false],
    [{ lat: '1', lng: 2 }, false],
    [null, false],
  ])('isGeoPoint(%j) is %s', (point, expected) => expect(isGeoPoint(point)).toBe(expected));
});
