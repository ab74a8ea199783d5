import { describe, expect, it } from 'vitest';
import { chooseContentCoding, compressionEffort, LARGE_ANSWER_BYTES } from './compression';

describe('chooseContentCoding', () => {
  it.each([
    [undefined, null],
    ['', null],
    ['identity', null],
    ['deflate', null],
    ['gzip', 'gzip'],
    ['br', 'br'],
    ['gzip, deflate, br, zstd', 'br'],
    ['GZIP', 'gzip'],
    ['br;q=0.5, gzip', 'gzip'],
    ['br;q=1.0, gzip;q=0.9', 'br'],
    ['br;q=0.8, gzip;q=0.8', 'br'],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0, gzip;q=0', null],
    ['*', 'br'],
    ['*;q=0', null],
    ['gzip, *;q=0', 'gzip'],
    ['br ; q=0.2, gzip ; q=0.1', 'br'],
    ['br;q=abc, gzip', 'gzip'],
  ])('%j -> %j', (header, coding) => {
    expect(chooseContentCoding(header)).toBe(coding);
  });
});

describe('compressionEffort', () => {
  it.each([
    [1024, 4, 6],
    [LARGE_ANSWER_BYTES - 1, 4, 6],
    [LARGE_ANSWER_BYTES, 1, 1],
    [40 * LARGE_ANSWER_BYTES, 1, 1],
  ])('an answer of %i bytes: brotli %i, gzip %i', (bytes, brotliQuality, gzipLevel) => {
    expect(compressionEffort(bytes)).toEqual({ brotliQuality, gzipLevel });
  });
});
