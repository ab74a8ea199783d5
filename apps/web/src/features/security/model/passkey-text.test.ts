import { describe, expect, it } from 'vitest';
import { passkeyPlaceOf } from './passkey-text';

describe('passkeyPlaceOf', () => {
  it.each([
    [['internal'], 'This kind of device'],
    [['hybrid', 'internal'], 'This kind of device'],
    [['hybrid'], 'A phone'],
    [['usb', 'nfc'], 'A security key'],
    [[], 'Unknown'],
  ])('%j -> %s', (transports, expected) => expect(passkeyPlaceOf(transports)).toBe(expected));
});
