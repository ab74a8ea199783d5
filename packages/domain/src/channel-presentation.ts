/**
 * How a channel is shown, everywhere it is shown (device dash, scene widgets, alarms, logs chart):
 * its name, its kind, whether its value is a state or a quantity, its unit, and its value as text.
 * One rule, so the same channel reads the same on every screen.
 */
import { channelDisplayName, channelName, parseChannelCode, type ChannelPrefix } from './channels';
import { formatWidgetNumber } from './widget-values';

/** What a channel's value is: a state (0 off, anything else on) or a measured quantity. */
export type ChannelValueType = 'state' | 'quantity';

/** A channel as devices report it: its code, and optionally its own name and unit. */
export interface ChannelDescription {
  code: string;
  name?: string | null;
  units?: string | null;
}

/** A channel ready to show. */
export interface ChannelPresentation {
  code: string;
  /** Its own name, else its display name (`Ch_1`), else its code. */
  title: string;
  /** The display name of its code (`Ch_1`), or the code when it is not a channel code. */
  displayName: string;
  /** What kind of channel it is (`Input`, `Relay`, `Pulse input`). */
  kind: string;
  type: ChannelValueType;
  /** Its unit, trimmed; empty when it has none. */
  units: string;
}

/** Each kind of channel, in the order the kinds are laid out. */
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

/** Kinds whose value is a state unless the device gives the channel a unit. */
const STATE_PREFIXES: ReadonlySet<ChannelPrefix> = new Set(['d', 'di', 'do', 'o', 'gpf']);

function kindIndex(prefix: ChannelPrefix): number {
  return KINDS.findIndex((kind) => kind.prefixes.includes(prefix));
}

function trimmedUnits(units: string | null | undefined): string {
  return units?.trim() ?? '';
}

/**
 * Whether a channel's value is a state or a quantity. Relays, digital inputs and flags are states,
 * unless the device gives the channel a unit: a digital input that counts a flowmeter's pulses
 * (`d1` "Supply 1 total", m³) is a quantity. Every other kind is a quantity.
 */
export function channelValueType(code: string, units?: string | null): ChannelValueType {
  const parsed = parseChannelCode(code);
  if (parsed === null || !STATE_PREFIXES.has(parsed.prefix)) return 'quantity';
  return trimmedUnits(units) ? 'quantity' : 'state';
}

/** The kind of a channel as a label; a digital input with a unit counts pulses. */
export function channelKindLabel(code: string, units?: string | null): string {
  const parsed = parseChannelCode(code);
  if (!parsed) return 'Channel';
  if ((parsed.prefix === 'd' || parsed.prefix === 'di') && channelValueType(code, units) === 'quantity') {
    return 'Pulse input';
  }
  return KINDS[kindIndex(parsed.prefix)]?.label ?? 'Channel';
}

/** A channel ready to show: title, display name, kind, value type and unit. */
export function describeChannel(channel: ChannelDescription): ChannelPresentation {
  const units = trimmedUnits(channel.units);
  return {
    code: channel.code,
    title: channelName(channel.code, channel.name),
    displayName: channelDisplayName(channel.code) ?? channel.code,
    kind: channelKindLabel(channel.code, units),
    type: channelValueType(channel.code, units),
    units,
  };
}

/** Options of {@link formatChannelValue}. */
export interface ChannelValueFormat {
  /** Decimals to show; automatic by magnitude when absent (1234 -> 0, 12.3 -> 1, 0.42 -> 2). */
  decimals?: number | null;
  /** A unit that replaces the channel's own (a widget's units). */
  units?: string | null;
  locale?: string;
}

/** The unit shown with a value: the override when it has one, else the channel's own. */
export function shownUnits(channel: Pick<ChannelDescription, 'units'>, override?: string | null): string {
  return trimmedUnits(override) || trimmedUnits(channel.units);
}

/**
 * A channel value in its two parts, for screens that draw the unit smaller: the text (`On`/`Off`
 * for states, else the number, grouped, with automatic or given decimals) and the unit (empty for
 * states and channels without one). Not a number: an em dash and no unit.
 */
export function channelValueParts(
  channel: ChannelDescription,
  value: number,
  format: ChannelValueFormat = {},
): { text: string; units: string } {
  if (!Number.isFinite(value)) return { text: '—', units: '' };
  if (channelValueType(channel.code, channel.units) === 'state') return { text: value !== 0 ? 'On' : 'Off', units: '' };
  return { text: formatWidgetNumber(value, format.decimals, format.locale), units: shownUnits(channel, format.units) };
}

/** A channel value as text with its unit: `21.2 °C`, `35,928 m³`, `On`; not a number: an em dash. */
export function formatChannelValue(
  channel: ChannelDescription,
  value: number,
  format: ChannelValueFormat = {},
): string {
  const { text, units } = channelValueParts(channel, value, format);
  return units ? `${text} ${units}` : text;
}

/** Orders codes as channels are laid out: by kind, then expanded IO last, then number. */
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
