import { describe, expect, it } from 'vitest';
import { isValidLocation, roundCoordinate } from './location';

describe('isValidLocation', () => {
  it.each([
    [{ lat: 32.7, lng: -96.8 }, true],
    [{ lat: 0, lng: 0 }, true],
    [{ lat: '32.7', lng: '-96.8' }, true],
    [{ lat: '', lng: -96.8 }, false],
    [{ lat: 32.7, lng: '  ' }, false],
    [{ lat: 32.7 }, false],
    [{ lng: 1 }, false],
    [{ lat: null, lng: 1 }, false],
    [{ lat: Number.NaN, lng: 1 }, false],
    [null, false],
    [undefined, false],
  ])('%j -> %s', (location, expected) => expect(isValidLocation(location)).toBe(expected));
});

describe('roundCoordinate', () => {
  it.each([
    [32.77671234, 32.776712],
    [-96.7970006, -96.797001],
    [1.5, 1.5],
    [0, 0],
  ])('%d -> %d', (value, expected) => expect(roundCoordinate(value)).toBe(expected));
});
