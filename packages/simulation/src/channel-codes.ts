import { parseChannelCode as parseDomainCode } from '@fieldlink/domain/channels';

/**
 * Channel codes are parsed by the domain (a prefix plus a number, hyphenated or not). A simulated
 * device also answers to a prefix's short form (`s` for `sp`, `o` for `do`, `di` for `d`), as field
 * controllers do, so a command may spell one of its channels either way.
 */

/** Prefixes that name the same kind of channel. */
const PREFIX_ALIASES: Readonly<Record<string, string>> = { s: 'sp', o: 'do', di: 'd' };

export interface ParsedChannelCode {
  readonly prefix: string;
  readonly index: number;
}

export function parseChannelCode(code: string): ParsedChannelCode | undefined {
  const parsed = parseDomainCode(code);
  if (!parsed || parsed.expanded) return undefined;
  return { prefix: PREFIX_ALIASES[parsed.prefix] ?? parsed.prefix, index: parsed.number };
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

/** Expanded IO is fitted in modules of this many points. */
export const EXPANDED_IO_MODULE = 16;

/**
 * The expanded-IO points a device with these channels is fitted with (its config's `expandedIoMax`):
 * whole modules covering its highest expanded-IO channel, 0 without any.
 */
export function expandedIoPoints(codes: readonly string[]): number {
  const highest = Math.max(0, ...codes.map((code) => parseDomainCode(code)).map((p) => (p?.expanded ? p.number : 0)));
  return Math.ceil(highest / EXPANDED_IO_MODULE) * EXPANDED_IO_MODULE;
}
