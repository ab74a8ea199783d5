/**
 * Channel codes are a prefix plus a number, hyphenated (`sp-1`) or not (`sp1`), and some prefixes have
 * a short form (`s` for `sp`, `o` for `do`, `di` for `d`). A device answers to any spelling of one of
 * its own channels. Replace with the domain's parser when `@fieldlink/domain` exports one.
 */

const CODE_RE = /^([a-z]{1,4})-?([0-9]{1,3})$/;

/** Prefixes that name the same kind of channel. */
const PREFIX_ALIASES: Readonly<Record<string, string>> = { s: 'sp', o: 'do', di: 'd' };

export interface ParsedChannelCode {
  readonly prefix: string;
  readonly index: number;
}

export function parseChannelCode(code: string): ParsedChannelCode | undefined {
  const match = CODE_RE.exec(code.toLowerCase());
  if (!match) return undefined;
  const prefix = match[1] ?? '';
  return { prefix: PREFIX_ALIASES[prefix] ?? prefix, index: Number(match[2]) };
}

/**
 * The device's own code for a requested code, or undefined when the device has no such channel.
 * An exact match wins, so a device whose `s1` is an alarm flag (water plants) keeps it apart from `sp1`.
 */
export function resolveChannelCode(requested: string, deviceCodes: readonly string[]): string | undefined {
  const lower = requested.toLowerCase();
  if (deviceCodes.includes(lower)) return lower;
  const wanted = parseChannelCode(lower);
  if (!wanted) return undefined;
  return deviceCodes.find((code) => {
    const own = parseChannelCode(code);
    return own !== undefined && own.prefix === wanted.prefix && own.index === wanted.index;
  });
}
