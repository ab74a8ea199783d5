import { useEffect, useReducer, type ReactNode, type SVGProps } from 'react';
import type { LatestValue } from '@fieldlink/api/realtime';
import { isChannelStale, staleAfterSeconds } from '@fieldlink/domain/staleness';
import { arcSegmentColor, formatWidgetNumber } from '@fieldlink/domain/widget-values';
import type { Widget } from '@fieldlink/api/scenes';
import { shownUnits } from '@fieldlink/domain/channel-presentation';
import { formatAge } from '../../../lib/format-time';
import { useLatestValue } from '../../../lib/realtime/use-realtime';
import { useDeviceIntervals } from '../../../lib/realtime/use-device-intervals';
import type { ResolvedChannel } from './widget-definition';
import './widgets.css';

/**
 * What every widget view shares: reading a channel's latest value with its staleness, the frame of
 * 'no channel', 'no data' and 'stale' looks, colours from the widget's colour names, and numbers.
 */

/**
 * Where a widget's channel stands: none chosen, its device gone from the caller's tree, no value yet,
 * a current value, or a value older than the staleness rule allows (core §4 channel staleness).
 */
export type ReadingStatus = 'unbound' | 'gone' | 'empty' | 'live' | 'stale';

export interface ChannelReading {
  latest: LatestValue | undefined;
  status: ReadingStatus;
}

/**
 * The latest value of a widget channel and whether it is stale. Re-renders on this channel's value,
 * its device's intervals (live config, else record: `useDeviceIntervals`), and once when the value
 * turns stale: one timer at the stale moment, not a clock tick per widget.
 */
export function useChannelReading(channel: ResolvedChannel | undefined): ChannelReading {
  const thingName = channel?.thingName ?? '';
  const latest = useLatestValue(thingName, channel?.code ?? '');
  // No record is read for a device gone from the tree (no thing name): it shows no value anyway.
  const intervals = useDeviceIntervals(channel?.thingName ? channel.deviceId : undefined, thingName);
  const [, recheck] = useReducer((n: number) => n + 1, 0);
  const staleAt = latest ? latest.t + staleAfterSeconds(intervals) * 1000 : null;
  useEffect(() => {
    if (staleAt === null) return;
    const wait = staleAt - Date.now() + 50;
    if (wait <= 0 || wait > 2 ** 31 - 1) return;
    const timer = setTimeout(recheck, wait);
    return () => clearTimeout(timer);
  }, [staleAt]);

  if (!channel) return { latest: undefined, status: 'unbound' };
  if (!channel.thingName) return { latest: undefined, status: 'gone' };
  if (!latest) return { latest: undefined, status: 'empty' };
  const stale = isChannelStale({ lastT: latest.t, ...intervals, now: Date.now() });
  return { latest, status: stale ? 'stale' : 'live' };
}

/**
 * A widget's colour name as a theme colour: the specification's defaults (`red`, `grey`) and the
 * common names map to the palette, so they read well in light and dark themes; anything else (a hex
 * code) is used as given.
 */
const NAMED_COLOURS: Readonly<Record<string, string>> = {
  red: 'var(--fl-danger)',
  green: 'var(--fl-success)',
  grey: 'var(--fl-muted)',
  gray: 'var(--fl-muted)',
  blue: 'var(--fl-primary)',
  orange: 'var(--fl-warning)',
  amber: 'var(--fl-warning)',
  yellow: 'var(--wv-yellow)',
  teal: 'var(--fl-accent)',
  cyan: 'var(--fl-info)',
};

export function themeColour(name: string | null | undefined, fallback: string): string {
  const trimmed = name?.trim();
  if (!trimmed) return fallback;
  return NAMED_COLOURS[trimmed.toLowerCase()] ?? trimmed;
}

/** The colour of a value: its arc segment's, else the widget's colour, else the fallback. */
export function valueColour(widget: Widget, value: number | null, fallback = 'var(--fl-primary)'): string {
  const segment = value === null ? null : arcSegmentColor(value, widget.arcSegments);
  return themeColour(segment ?? widget.color, fallback);
}

/** The colours of an on/off widget (§3 activeColor, inactiveColor; switchColors swaps them). */
export function onOffColours(widget: Widget): { on: string; off: string } {
  const active = themeColour(widget.activeColor, 'var(--fl-danger)');
  const inactive = themeColour(widget.inactiveColor, 'var(--fl-muted)');
  return widget.switchColors ? { on: inactive, off: active } : { on: active, off: inactive };
}

/** A value as text with the widget's increment decimals when it has an increment. */
export function formatValue(value: number | null | undefined, decimals?: number | null): string {
  return typeof value === 'number' ? formatWidgetNumber(value, decimals) : '—';
}

/** The unit a widget shows: its own units when set, else the unit the device gives its channel. */
export function unitsOf(widget: Widget, channel: ResolvedChannel | undefined): string {
  return shownUnits(channel ?? {}, widget.units);
}

/** The message a widget shows instead of its graphic when there is nothing to draw. */
function statusMessage(status: ReadingStatus): { title: string; hint: string } | null {
  if (status === 'unbound') return { title: 'No channel', hint: 'Edit the widget to choose one.' };
  if (status === 'gone') return { title: 'Device unavailable', hint: 'It is no longer in your account tree.' };
  return null;
}

export interface WidgetBodyProps {
  status: ReadingStatus;
  /** Time of the shown value, for the stale note. */
  t?: number;
  className: string;
  children: ReactNode;
  /** Draw the graphic even without a channel (custom text). */
  always?: boolean;
}

/**
 * The body every view draws into: fills the frame, sets the size container the type's CSS scales
 * with, and shows the 'no channel', 'device unavailable', 'no data' and 'stale' looks the same way
 * for every type.
 */
export function WidgetBody({ status, t, className, children, always = false }: WidgetBodyProps) {
  const message = always ? null : statusMessage(status);
  return (
    <div className={`wv ${className}`} data-status={status}>
      {message ? (
        <div className="wv-message" role="note">
          <WidgetGlyph status={status} />
          <strong>{message.title}</strong>
          <span>{message.hint}</span>
        </div>
      ) : (
        children
      )}
      {status === 'empty' && !always && <span className="wv-flag wv-flag--empty">No data</span>}
      {status === 'stale' && (
        <span className="wv-flag wv-flag--stale" title="No recent value from the device">
          <ClockGlyph /> Stale
          {t ? <span className="wv-flag__age"> · {formatAge(t, Date.now())}</span> : null}
        </span>
      )}
    </div>
  );
}

function WidgetGlyph({ status }: { status: ReadingStatus }) {
  return (
    <svg className="wv-message__glyph" viewBox="0 0 24 24" aria-hidden="true">
      {status === 'gone' ? (
        <path d="M4 4l16 16M9.5 5.2A8 8 0 0 1 20 12a8 8 0 0 1-1.2 4.3M16 19.5A8 8 0 0 1 4 12a8 8 0 0 1 1.6-4.8" />
      ) : (
        <path d="M7 12h10M12 7v10M4 12a8 8 0 1 0 16 0a8 8 0 1 0-16 0" />
      )}
    </svg>
  );
}

export function ClockGlyph() {
  return (
    <svg className="wv-glyph" viewBox="0 0 16 16" aria-hidden="true">
      <circle cx="8" cy="8" r="6.25" fill="none" stroke="currentColor" strokeWidth="1.5" />
      <path d="M8 4.5V8l2.5 1.5" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" />
    </svg>
  );
}

/** The inline failure of a control's last write ('Timeout when waiting for response.', 'Command Failed.'). */
export function WriteError({ message, onDismiss }: { message: string | null; onDismiss: () => void }) {
  if (!message) return null;
  return (
    <p className="wv-error" role="alert">
      <span>{message}</span>
      <button type="button" className="wv-error__close" aria-label="Dismiss" onClick={onDismiss}>
        ×
      </button>
    </p>
  );
}

/** The shell of a type's preview in the add-widget picker: a 48 × 32 drawing coloured by currentColor. */
export function PickerIcon({ children, ...props }: SVGProps<SVGSVGElement>) {
  return (
    <svg viewBox="0 0 48 32" width="48" height="32" aria-hidden="true" {...props}>
      {children}
    </svg>
  );
}

/** A point on a circle, angle in degrees clockwise from 12 o'clock. */
export function polar(cx: number, cy: number, r: number, degrees: number): [number, number] {
  const radians = ((degrees - 90) * Math.PI) / 180;
  return [cx + r * Math.cos(radians), cy + r * Math.sin(radians)];
}

/** An SVG arc path from one angle to another (clockwise, degrees from 12 o'clock). */
export function arcPath(cx: number, cy: number, r: number, from: number, to: number): string {
  const [x1, y1] = polar(cx, cy, r, from);
  const [x2, y2] = polar(cx, cy, r, to);
  const large = to - from > 180 ? 1 : 0;
  return `M${x1.toFixed(2)} ${y1.toFixed(2)}A${r} ${r} 0 ${large} 1 ${x2.toFixed(2)} ${y2.toFixed(2)}`;
}
