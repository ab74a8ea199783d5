/**
 * Channel codes (specification core §3, §9): a prefix naming the kind of channel plus a number,
 * written hyphen-separated (`sp-3`, `SP-1`) or as letters followed by digits (`sp3`, `gpf11`).
 */

/** Every channel prefix of the specification, with the kind of channel it names. */
export const CHANNEL_PREFIXES = ['a', 'c', 'cs', 'd', 'di', 'do', 'o', 'gpf', 's', 'sp', 't', 'st'] as const;
export type ChannelPrefix = (typeof CHANNEL_PREFIXES)[number];

/**
 * Display-name stems: a channel `a3` is shown as `Aux_3`. `d`/`di`, `do`/`o` and `s`/`sp` share a
 * stem because the specification names them as one kind written two ways.
 */
export const CHANNEL_DISPLAY_STEMS: Readonly<Record<ChannelPrefix, string>> = {
  a: 'Aux',
  c: 'Ch',
  cs: 'ChB',
  d: 'DI',
  di: 'DI',
  do: 'Relay',
  o: 'Relay',
  gpf: 'GPF',
  s: 'SP',
  sp: 'SP',
  t: 'Total',
  st: 'TempControl',
};

/**
 * Largest channel number per prefix (§9). Prefixes missing here (`c`, `cs`, `st`) have no stated limit.
 */
export const MAX_CHANNEL_COUNT: Readonly<Partial<Record<ChannelPrefix, number>>> = {
  a: 16,
  do: 16,
  s: 16,
  sp: 16,
  gpf: 32,
  t: 10,
  d: 4,
  di: 4,
  o: 4,
};

/**
 * Prefixes that have an expanded-IO form written with a leading `x` (`xdo1`, as the plant alarm flags
 * use). Expanded IO extends the digital inputs and relays, so only those kinds take the `x`.
 */
export const EXPANDABLE_PREFIXES: readonly ChannelPrefix[] = ['d', 'di', 'do', 'o'];

/** Prefix of the widget channel names that address a setpoint by index (`sp-{index}`). */
export const SETPOINT_WIDGET_PREFIX = 'sp-';

/** A channel code taken apart. */
export interface ParsedChannelCode {
  prefix: ChannelPrefix;
  /** Channel number, 1 or more. */
  number: number;
  /** True for expanded IO (`xdo3`), whose count comes from the device's configured maximum. */
  expanded: boolean;
}

// Letters, an optional hyphen, then up to three digits: the same shape as the API's code pattern,
// but any case, because spray parameter codes are written `SP-1` and `GPF-9`.
const CODE_RE = /^([a-z]{1,4})-?([0-9]{1,3})$/i;
const PREFIX_SET: ReadonlySet<string> = new Set(CHANNEL_PREFIXES);

function isChannelPrefix(text: string): text is ChannelPrefix {
  return PREFIX_SET.has(text);
}

/**
 * Takes a channel code apart, or returns null when it is not one. Number 0 is refused: channels are
 * numbered from 1 (every code of the specification is), so `c0` is a typo, not a channel.
 */
export function parseChannelCode(code: string): ParsedChannelCode | null {
  const match = CODE_RE.exec(code.trim());
  if (!match) return null;
  const letters = (match[1] ?? '').toLowerCase();
  const number = Number(match[2]);
  if (number < 1) return null;
  if (isChannelPrefix(letters)) return { prefix: letters, number, expanded: false };
  const base = letters.slice(1);
  if (letters.startsWith('x') && isChannelPrefix(base) && EXPANDABLE_PREFIXES.includes(base)) {
    return { prefix: base, number, expanded: true };
  }
  return null;
}

/** Builds the canonical code of a parsed channel: lower case, no hyphen, no leading zeros (`sp3`, `xdo1`). */
export function formatChannelCode(parsed: ParsedChannelCode): string {
  return `${parsed.expanded ? 'x' : ''}${parsed.prefix}${parsed.number}`;
}

/**
 * The canonical form of a code (`SP-03` -> `sp3`), or null when it is not a channel code. Aliases such
 * as `s`/`sp` are kept apart: a device may report both (`s1` alarm flags beside `sp1` setpoints).
 */
export function normaliseChannelCode(code: string): string | null {
  const parsed = parseChannelCode(code);
  return parsed ? formatChannelCode(parsed) : null;
}

/** True when both texts name the same channel (`sp-3` and `SP3`). */
export function sameChannelCode(a: string, b: string): boolean {
  const left = normaliseChannelCode(a);
  return left !== null && left === normaliseChannelCode(b);
}

/**
 * The display name of a channel code (`a3` -> `Aux_3`, `cs2` -> `ChB_2`), or null when it is not a
 * channel code. Expanded IO, which the specification does not name, is shown with an `X` before the
 * stem (`xdo1` -> `XRelay_1`) so that it never reads like the built-in relay of the same number.
 */
export function channelDisplayName(code: string): string | null {
  const parsed = parseChannelCode(code);
  if (!parsed) return null;
  return `${parsed.expanded ? 'X' : ''}${CHANNEL_DISPLAY_STEMS[parsed.prefix]}_${parsed.number}`;
}

/** A channel's name as shown: its own name when it has one, else its display name (`Ch_1`), else its code. */
export function channelName(code: string, ownName?: string | null): string {
  return ownName?.trim() || channelDisplayName(code) || code;
}

/**
 * The largest channel number allowed for a parsed code, or null when none is stated. Expanded IO takes
 * `expandedIoMax` from the device configuration; without one, a device has no expanded IO (0).
 */
export function maxChannelCount(parsed: ParsedChannelCode, expandedIoMax?: number | null): number | null {
  if (parsed.expanded) return expandedIoMax ?? 0;
  return MAX_CHANNEL_COUNT[parsed.prefix] ?? null;
}

/** True when the code is a channel code and its number is within the maximum count of its prefix. */
export function isWithinMaxCount(code: string, expandedIoMax?: number | null): boolean {
  const parsed = parseChannelCode(code);
  if (!parsed) return false;
  const max = maxChannelCount(parsed, expandedIoMax);
  return max === null || parsed.number <= max;
}

/**
 * True when the code counts as a channel for the channel count. The rule is literal: codes starting
 * with `c`, which takes in the secondary inputs (`cs`) too.
 */
export function countsAsChannel(code: string): boolean {
  return code.trim().toLowerCase().startsWith('c');
}

/** The channel count of a device (the device table's column): codes starting with `c`. */
export function countChannels(codes: Iterable<string>): number {
  let count = 0;
  for (const code of codes) if (countsAsChannel(code)) count += 1;
  return count;
}

/** The setpoint index of a widget channel name of the form `sp-{index}` (`sp-3` -> 3), else null. */
export function setpointIndexFromWidgetName(name: string): number | null {
  if (!name.startsWith(SETPOINT_WIDGET_PREFIX)) return null;
  const digits = name.slice(SETPOINT_WIDGET_PREFIX.length);
  return /^[0-9]{1,3}$/.test(digits) ? Number(digits) : null;
}
