import { channelName, parseChannelCode, type ChannelPrefix } from '@fieldlink/domain/channels';

/** What each kind of channel is called on a card, in the order the kinds are laid out. */
const KINDS: readonly { prefixes: readonly ChannelPrefix[]; label: string }[] = [
  { prefixes: ['c'], label: 'Input' },
  { prefixes: ['cs'], label: 'Secondary input' },
  { prefixes: ['a'], label: 'Auxiliary' },
  { prefixes: ['st'], label: 'Temperature control' },
  { prefixes: ['s', 'sp'], label: 'Setpoint' },
  { prefixes: ['d', 'di'], label: 'Digital input' },
  { prefixes: ['do', 'o'], label: 'Relay' },
  { prefixes: ['t'], label: 'Totalizer' },
  { prefixes: ['gpf'], label: 'Flag' },
];

/** Channels whose value is a state (0 off, anything else on) rather than a measurement. */
const BINARY: ReadonlySet<ChannelPrefix> = new Set(['d', 'di', 'do', 'o', 'gpf']);

function kindIndex(prefix: ChannelPrefix): number {
  return KINDS.findIndex((kind) => kind.prefixes.includes(prefix));
}

export function channelKindLabel(code: string): string {
  const parsed = parseChannelCode(code);
  return parsed ? (KINDS[kindIndex(parsed.prefix)]?.label ?? 'Channel') : 'Channel';
}

/** The card title: the channel's own name when it has one, else its display name (`Ch_1`). */
export function channelTitle(code: string, name?: string | null): string {
  return channelName(code, name);
}

export function isBinaryChannel(code: string): boolean {
  const parsed = parseChannelCode(code);
  return parsed !== null && BINARY.has(parsed.prefix);
}

/** Orders codes as the cards are laid out: by kind, then expanded IO last, then number. */
export function compareChannelCodes(a: string, b: string): number {
  const pa = parseChannelCode(a);
  const pb = parseChannelCode(b);
  if (!pa || !pb) return pa ? -1 : pb ? 1 : a.localeCompare(b);
  return (
    kindIndex(pa.prefix) - kindIndex(pb.prefix) ||
    Number(pa.expanded) - Number(pb.expanded) ||
    pa.number - pb.number ||
    a.localeCompare(b)
  );
}

/**
 * A channel value as shown: On/Off for relays, digital inputs and flags; totalizers as whole numbers
 * with grouping; measurements with up to two decimals (one above a thousand). Never `NaN` on screen.
 */
export function formatChannelValue(code: string, value: number, locale?: string): string {
  if (!Number.isFinite(value)) return '—';
  if (isBinaryChannel(code)) return value !== 0 ? 'On' : 'Off';
  const parsed = parseChannelCode(code);
  if (parsed?.prefix === 't') return new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }).format(value);
  const decimals = Math.abs(value) >= 1000 ? 1 : 2;
  return new Intl.NumberFormat(locale, { maximumFractionDigits: decimals }).format(value);
}
