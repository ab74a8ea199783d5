import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { nulTextPath } from '../security/nul-text';
import { parseFrame, RawLogsEvent } from './ingest';

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

describe('RawLogsEvent', () => {
  // The samples by channel are made when read; what a reader and the JSON see is what the frame's
  // event held when it was made eagerly: each channel's one sample, its extra fields spread in.
  it('reads and writes as the frame event made from its rows and extras', () =>
    fc.assert(
      fc.property(
        fc.uniqueArray(
          fc.record({
            code: fc.stringMatching(/^c[0-9]{1,2}$/),
            value: fc.double({ noNaN: true, noDefaultInfinity: true }),
            extra: fc.option(fc.record({ tempSp: fc.integer(), diff: fc.integer() }, { requiredKeys: [] }), {
              nil: undefined,
            }),
          }),
          { selector: (channel) => channel.code, maxLength: 12 },
        ),
        fc.integer({ min: 0, max: 2 ** 42 }),
        (channels, t) => {
          const rows = channels.map(({ code, value, extra }) => ({
            device_id: 'd',
            code,
            t,
            value,
            extra: extra ? JSON.stringify(extra) : null,
          }));
          const extras = Object.fromEntries(channels.flatMap(({ code, extra }) => (extra ? [[code, extra]] : [])));
          const eager = {
            type: 'server/newRawLogs',
            thingName: 'ACME-1',
            logs: Object.fromEntries(
              channels.map(({ code, value, extra }) => [code, [extra ? { value, t, ...extra } : { value, t }]]),
            ),
          };
          const event = new RawLogsEvent('ACME-1', rows, extras);
          expect(JSON.parse(JSON.stringify(event))).toEqual(JSON.parse(JSON.stringify(eager)));
          expect({ type: event.type, thingName: event.thingName, logs: event.logs }).toEqual(eager);
          expect(event.logs).toBe(event.logs);
        },
      ),
    ));
});
