import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { nulTextPath } from '../security/nul-text';
import { parseFrame } from './ingest';

/** Text as a device may garble it: NULs, and backslashes and `u0000` that only look like its escape. */
const trickyText = fc.oneof(
  fc.constantFrom('\u0000', 'a\u0000b', '\\u0000', '\\\u0000', 'u0000', '\\', ''),
  fc.string({ maxLength: 8, unit: 'binary' }),
);

describe('parseFrame: NUL in text', () => {
  // parseFrame walks a frame for NULs only when its text holds the escape `\u0000`.
  it('refuses exactly the frames with a NUL in a string or key, as the full walk finds them', () =>
    fc.assert(
      fc.property(
        fc.dictionary(trickyText, fc.oneof(trickyText, fc.array(trickyText, { maxLength: 2 })), { maxKeys: 3 }),
        fc.option(trickyText, { nil: undefined }),
        fc.boolean(),
        (status, sn, asBuffer) => {
          const frame =
            sn === undefined
              ? { v: 4, type: 'status', t: 1_764_500_000_000, status }
              : { v: 4, type: 'config', subtype: 'device', sn };
          const text = JSON.stringify(frame);
          const result = parseFrame(asBuffer ? Buffer.from(text) : text);
          const path = nulTextPath(JSON.parse(text));
          if (path !== null) {
            expect(result).toEqual({ ok: false, error: `Invalid frame: ${path} must not contain a NUL character` });
          } else {
            expect(result.ok ? '' : result.error).not.toContain('NUL');
          }
        },
      ),
      { numRuns: 2000 },
    ));

  it('reads a frame whose text spells a backslash before u0000, which is no NUL', () => {
    expect(parseFrame(JSON.stringify({ v: 4, type: 'config', subtype: 'device', sn: 'A\\u0000' })).ok).toBe(true);
  });
});
