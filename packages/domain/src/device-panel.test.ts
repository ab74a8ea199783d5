import { describe, expect, it } from 'vitest';
import {
  boundingBox,
  connectionAttribute,
  draftToProps,
  mapSource,
  mapView,
  markerColour,
  mutedListsMatch,
  planLabel,
  requestedMutedList,
  shouldSearchAddress,
} from './device-panel';

describe('device panel rules', () => {
  it.each([
    [
      { isConnected: true, lastConnection: 10, lastDisconnection: 5 },
      { label: 'Last disconnection', t: 5 },
    ],
    [
      { isConnected: false, lastConnection: 10, lastDisconnection: 20 },
      { label: 'Last connection', t: 10 },
    ],
    [{ isConnected: true, lastConnection: 10, lastDisconnection: null }, null],
    [{ isConnected: false, lastConnection: null, lastDisconnection: 20 }, null],
  ])('connection line of %j is %j', (device, expected) => expect(connectionAttribute(device)).toEqual(expected));

  it.each([
    ['PREMIUM', 'Premium'],
    ['FREE', 'Free'],
    ['GOLD', 'Free'],
    [null, 'Free'],
  ])('plan %s shows as %s', (plan, label) => expect(planLabel(plan)).toBe(label));

  it.each([
    ['', false],
    ['  ', false],
    ['a', true],
  ])('searches for %j: %s', (text, expected) => expect(shouldSearchAddress(text)).toBe(expected));

  it('biases around the location by the radius', () => {
    const [west, south, east, north] = boundingBox(0, 0, 20);
    expect(north - south).toBeCloseTo((2 * 20) / 111.32, 6);
    expect(east).toBeCloseTo(-west, 9);
    expect(boundingBox(89.99, 179.9, 20)[3]).toBe(90);
  });

  it.each([
    [[], { center: { lat: 32.7767, lng: -96.797 }, zoom: 1 }],
    [[{ lat: 1, lng: 2 }], { center: { lat: 1, lng: 2 }, zoom: 10 }],
    [
      [
        { lat: 1, lng: 2 },
        { lat: 3, lng: 4 },
      ],
      { center: { lat: 32.7767, lng: -96.797 }, zoom: 1 },
    ],
  ])('map view of %j', (markers, expected) => expect(mapView(markers)).toEqual(expected));

  it.each([
    { mapKey: ' k-123 ', mapTileUrl: 'https://tiles.example.com/{z}/{x}/{y}.png', shown: true },
    { mapKey: null, mapTileUrl: 'https://tiles.example.com/{z}/{x}/{y}.png', shown: false },
    { mapKey: '', mapTileUrl: 'https://tiles.example.com/{z}/{x}/{y}.png', shown: false },
    { mapKey: '   ', mapTileUrl: 'https://tiles.example.com/{z}/{x}/{y}.png', shown: false },
    { mapKey: 'k-123', mapTileUrl: null, shown: false },
    { mapKey: 'k-123', mapTileUrl: ' ', shown: false },
    { mapKey: null, mapTileUrl: null, shown: false },
  ])('map shown with key $mapKey and tiles $mapTileUrl: $shown', ({ shown, ...config }) =>
    expect(mapSource(config)).toEqual(
      shown ? { tileUrl: 'https://tiles.example.com/{z}/{x}/{y}.png', key: 'k-123' } : null,
    ),
  );

  it('colours markers green when connected and red when not', () => {
    expect([markerColour(true), markerColour(false)]).toEqual(['green', 'red']);
  });

  it.each([
    [['A', 'B'], ['B', 'A'], true],
    [['A'], ['A', 'B'], false],
    [[], [], true],
    [['A'], [], false],
  ])('muted lists %j and %j match: %s', (requested, confirmed, expected) =>
    expect(mutedListsMatch(requested, confirmed)).toBe(expected),
  );

  it('asks for a muted list with or without the device', () => {
    expect(requestedMutedList(['A', 'B'], 'C', true)).toEqual(['A', 'B', 'C']);
    expect(requestedMutedList(['A', 'B'], 'A', false)).toEqual(['B']);
    expect(requestedMutedList(['A'], 'A', true)).toEqual(['A']);
  });

  it.each([
    ['an empty draft', {}, {}],
    ['a name (trimmed)', { name: ' Boiler ' }, { name: 'Boiler' }],
    ['a blank name (left out)', { name: '  ' }, {}],
    ['a blank site (cleared)', { site: ' ' }, { site: null }],
    ['a location with one coordinate (left out)', { location: { lat: '1', lng: '' } }, {}],
    ['a location that is not a number (left out)', { location: { lat: 'x', lng: '2' } }, {}],
    ['a location out of range (left out)', { location: { lat: 91, lng: 2 } }, {}],
    [
      'typed coordinates (rounded to 6 decimals)',
      { location: { lat: '32.12345678', lng: '-96.1' } },
      { location: { lat: 32.123457, lng: -96.1 } },
    ],
    [
      'an address with its coordinates',
      { location: { lat: 1.0000004, lng: 2, address: ' 1 Main St ' } },
      { location: { lat: 1, lng: 2, address: '1 Main St' } },
    ],
  ])('turns %s into props', (_name, draft, props) => expect(draftToProps(draft)).toEqual(props));
});
