import { describe, expect, it } from 'vitest';
import { normaliseEmail } from './email';

describe('normaliseEmail', () => {
  it.each([
    ['  Ann@Example.COM ', 'ann@example.com'],
    ['ann@example.com', 'ann@example.com'],
    ['\tBOB@x.io\n', 'bob@x.io'],
  ])('%j -> %j', (email, expected) => expect(normaliseEmail(email)).toBe(expected));
});
