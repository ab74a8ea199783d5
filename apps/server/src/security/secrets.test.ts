import { describe, expect, it } from 'vitest';
import { newDeviceSecret } from './secrets';

describe('newDeviceSecret', () => {
  it('is 192 bits of base64url that never starts with a formula trigger (the credentials CSV keeps it as is)', () => {
    const secrets = Array.from({ length: 5000 }, newDeviceSecret);
    for (const secret of secrets) expect(secret).toMatch(/^[A-Za-z0-9_][A-Za-z0-9_-]{31}$/);
    expect(new Set(secrets).size).toBe(secrets.length);
  });
});
