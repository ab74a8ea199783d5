import { describe, expect, it } from 'vitest';
import { tokenUserId } from './session-token';

/** base64url of the UTF-8 JSON, as a JWT's parts are. */
const part = (value: unknown) =>
  btoa(String.fromCharCode(...new TextEncoder().encode(JSON.stringify(value))))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
const token = (claims: unknown) => `${part({ alg: 'HS256' })}.${part(claims)}.signature`;

describe('tokenUserId', () => {
  it.each<[string, string | null, string | null]>([
    ['a session token', token({ sub: 'user-1', jti: 'j', tv: 1, exp: 2 }), 'user-1'],
    ['a subject in UTF-8 needing base64url', token({ sub: 'Jürgen>?~€' }), 'Jürgen>?~€'],
    ['no subject', token({ jti: 'j' }), null],
    ['an empty subject', token({ sub: '' }), null],
    ['a subject that is not text', token({ sub: 7 }), null],
    ['not a token', 'garbage', null],
    ['a payload that is not JSON', 'a.b.c', null],
    ['no token', null, null],
  ])('%s', (_label, given, expected) => expect(tokenUserId(given)).toBe(expected));
});
