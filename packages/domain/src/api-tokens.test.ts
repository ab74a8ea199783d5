import { describe, expect, it } from 'vitest';
import { API_TOKEN_DEFAULT_DAYS, API_TOKEN_MAX_DAYS, apiTokenExpiry, isApiTokenShaped } from './api-tokens';

const NOW = Date.UTC(2026, 10, 29, 12);
const DAY = 86_400_000;

describe('API tokens', () => {
  it.each([
    ['flk_' + 'a'.repeat(43), true],
    ['flk_' + 'Az09_-'.repeat(7) + 'x', true],
    ['flk_' + 'a'.repeat(42), false],
    ['flk_' + 'a'.repeat(44), false],
    ['flk_' + 'a'.repeat(42) + '=', false],
    ['FLK_' + 'a'.repeat(43), false],
    ['eyJhbGciOiJIUzI1NiJ9.e30.x', false],
    ['', false],
  ])('%s is shaped like a token: %s', (text, shaped) => {
    expect(isApiTokenShaped(text)).toBe(shaped);
  });

  it.each([
    ['no expiry: the default', undefined, { expiresAt: NOW + API_TOKEN_DEFAULT_DAYS * DAY }],
    ['tomorrow', NOW + DAY, { expiresAt: NOW + DAY }],
    ['exactly the maximum', NOW + API_TOKEN_MAX_DAYS * DAY, { expiresAt: NOW + API_TOKEN_MAX_DAYS * DAY }],
    ['past the maximum', NOW + API_TOKEN_MAX_DAYS * DAY + 1, { problem: 'An API token can last at most 365 days.' }],
    ['now', NOW, { problem: 'The expiry date must be in the future.' }],
    ['yesterday', NOW - DAY, { problem: 'The expiry date must be in the future.' }],
  ])('expiry %s', (_name, requested, expected) => {
    expect(apiTokenExpiry(requested, NOW)).toEqual(expected);
  });
});
