import { describe, expect, it } from 'vitest';
import { HARDWARE_FAMILIES, parseHardwareFamily, parseHardwareString } from './hardware';

describe('parseHardwareFamily', () => {
  it.each([
    ['NIM2', 'NIM2'],
    ['NIM3:rev1', 'NIM3'],
    ['ZEN6:b:WIFI', 'ZEN6'],
    ['ZEN_IOT:rev3:4G', 'ZEN_IOT'],
    ['ZEN_G3:r2:LTE-M:GPS', 'ZEN_G3'],
    ['zen_iot:rev3', 'ZEN_IOT'],
    [' NIM2 :x', 'NIM2'],
    ['NIM4:rev1', null],
    ['ZEN', null],
    ['rev3:ZEN6', null],
    ['', null],
    [null, null],
    [undefined, null],
  ])('%j -> %j', (hw, expected) => expect(parseHardwareFamily(hw)).toBe(expected));

  it('knows every family by its own name', () => {
    for (const family of HARDWARE_FAMILIES) expect(parseHardwareFamily(`${family}:r1`)).toBe(family);
  });
});

describe('parseHardwareString', () => {
  it.each([
    ['ZEN_IOT:rev3:4G', { family: 'ZEN_IOT', revision: 'rev3', options: ['4G'] }],
    ['ZEN_G3:r2:LTE-M::GPS', { family: 'ZEN_G3', revision: 'r2', options: ['LTE-M', 'GPS'] }],
    ['NIM2', { family: 'NIM2', revision: null, options: [] }],
    ['NIM2::WIFI', { family: 'NIM2', revision: null, options: ['WIFI'] }],
    ['OTHER:r1', { family: null, revision: 'r1', options: [] }],
  ])('%j', (hw, expected) => expect(parseHardwareString(hw)).toEqual(expected));
});
