import { memo, type CSSProperties } from 'react';
import {
  apparentAttenuation,
  formatGravity,
  formatWidgetNumber,
  isOnValue,
  originalGravityOf,
} from '@fieldlink/domain/widget-values';
import { widgetRole } from '@fieldlink/domain/widgets';
import { formatDateTime } from '@fieldlink/domain/date-format';
import { formatAge } from '../../../lib/format-time';
import { useNow } from '../../../lib/clock';
import { widgetTitle } from '../model/resolve-channels';
import type { ResolvedChannel, WidgetDefinition, WidgetViewProps } from './widget-definition';
import { IndicatorEditor, OriginalGravityEditor } from './widget-editors';
import {
  ClockGlyph,
  formatValue,
  PickerIcon,
  onOffColours,
  unitsOf,
  useChannelReading,
  valueColour,
  WidgetBody,
  type ReadingStatus,
} from './widget-kit';

/** Widgets that show a value as text or a lamp: value, text and number, indicator, lag time, custom text, brew. */

const ValueView = memo(function ValueView({ widget, channels }: WidgetViewProps) {
  const { latest, status } = useChannelReading(channels[0]);
  const value = latest?.value ?? null;
  const colour = widget.arcSegments.length > 0 || widget.color ? valueColour(widget, value) : 'var(--fl-text)';
  const units = unitsOf(widget, channels[0]);
  return (
    <WidgetBody status={status} t={latest?.t} className="wv-big">
      <div className="wv-big__value" style={{ color: colour }}>
        <span className="wv-big__number">{formatValue(value)}</span>
        {units && <span className="wv-big__unit">{units}</span>}
      </div>
      {/* The channel's name, unless the frame's title already says it. */}
      {channels[0] && channels[0].name !== widgetTitle(widget, channels) && (
        <div className="wv-big__caption">{channels[0].name}</div>
      )}
    </WidgetBody>
  );
});

function listStatus(channels: readonly ResolvedChannel[]): ReadingStatus {
  return channels.length === 0 ? 'unbound' : 'live';
}

function ChannelRow({ channel, units, gravity }: { channel: ResolvedChannel; units: string; gravity?: boolean }) {
  const { latest, status } = useChannelReading(channel);
  const value = latest?.value ?? null;
  const text =
    status === 'gone' ? 'unavailable' : value === null ? '—' : gravity ? formatGravity(value) : formatValue(value);
  return (
    <div className="wv-rows__row" data-status={status}>
      <span className="wv-rows__name" title={`${channel.deviceName} · ${channel.code}`}>
        {channel.name}
      </span>
      <span className="wv-rows__value">
        {text}
        {units && value !== null && <small>{units}</small>}
        {status === 'stale' && (
          <span className="wv-rows__stale" title={latest ? `Stale: ${formatDateTime(latest.t)}` : 'Stale'}>
            <ClockGlyph />
          </span>
        )}
      </span>
    </div>
  );
}

const TextAndNumberView = memo(function TextAndNumberView({ widget, channels }: WidgetViewProps) {
  const units = unitsOf(widget, channels[0]);
  return (
    <WidgetBody status={listStatus(channels)} className="wv-rows">
      {channels.map((channel) => (
        <ChannelRow key={`${channel.deviceId}:${channel.code}`} channel={channel} units={units} />
      ))}
    </WidgetBody>
  );
});

const IndicatorView = memo(function IndicatorView({ widget, channels }: WidgetViewProps) {
  const { latest, status } = useChannelReading(channels[0]);
  const on = latest ? isOnValue(latest.value) : false;
  const { on: onColour, off: offColour } = onOffColours(widget);
  const style = { '--wv-lamp': on ? onColour : offColour } as CSSProperties;
  const alerting = on && widget.isAlertMode === true;
  return (
    <WidgetBody
      status={status}
      t={latest?.t}
      className={`wv-indicator${on ? ' is-on' : ''}${alerting ? ' is-alert' : ''}`}
    >
      <svg
        className="wv-svg"
        viewBox="0 0 200 150"
        role="img"
        aria-label={latest ? (on ? 'On' : 'Off') : 'No data'}
        style={style}
      >
        <circle cx="100" cy="62" r="50" className="wv-indicator__halo" />
        <circle cx="100" cy="62" r="38" className="wv-indicator__bezel" />
        <circle cx="100" cy="62" r="31" className="wv-indicator__lamp" />
        <ellipse cx="90" cy="49" rx="13" ry="8" fill="#fff" fillOpacity="0.35" />
        <text x="100" y="136" fontSize="20" textAnchor="middle" className="wv-text-value">
          {latest ? (on ? 'ON' : 'OFF') : '—'}
        </text>
      </svg>
      {alerting && <span className="wv-indicator__alert">Alert</span>}
    </WidgetBody>
  );
});

const LagTimeView = memo(function LagTimeView({ channels }: WidgetViewProps) {
  const { latest, status } = useChannelReading(channels[0]);
  // The shared clock moves the age on; the reading already says whether the value is stale.
  const now = useNow();
  const stale = status === 'stale';
  return (
    // The lag is this widget's value: its own stale look replaces the shared flag.
    <WidgetBody status={status === 'stale' ? 'live' : status} className={`wv-lag${stale ? ' is-late' : ''}`}>
      <div className="wv-lag__age">
        <ClockGlyph />
        <span>{latest ? formatAge(latest.t, now) : 'No value yet'}</span>
      </div>
      <div className="wv-lag__detail">
        <span className={`wv-dot ${stale ? 'wv-dot--warning' : latest ? 'wv-dot--success' : 'wv-dot--muted'}`} />
        {latest ? (stale ? 'Stale' : 'Reporting') : 'Waiting for data'}
        {latest && <time dateTime={new Date(latest.t).toISOString()}>{formatDateTime(latest.t)}</time>}
      </div>
    </WidgetBody>
  );
});

const CustomTextView = memo(function CustomTextView({ widget, width }: WidgetViewProps) {
  const text =
    typeof widget.value === 'string' ? widget.value.trim() : widget.value == null ? '' : String(widget.value);
  return (
    <WidgetBody status="live" always className={`wv-text${width > 480 ? ' is-wide' : ''}`}>
      {text ? (
        <p className="wv-text__body">{text}</p>
      ) : (
        <p className="wv-text__empty">Add text in the widget editor.</p>
      )}
    </WidgetBody>
  );
});

const BrewOriginalGravityView = memo(function BrewOriginalGravityView({ widget, channels }: WidgetViewProps) {
  const current = useChannelReading(channels[0]);
  const original = useChannelReading(channels[1]);
  const sg = current.latest?.value ?? null;
  const og = original.latest?.value ?? originalGravityOf(widget.value);
  const attenuation = og !== null && sg !== null ? apparentAttenuation(og, sg) : null;
  return (
    <WidgetBody status={current.status} t={current.latest?.t} className="wv-gravity">
      <div className="wv-gravity__pair">
        <div>
          <span className="wv-gravity__label">Original</span>
          <span className="wv-gravity__value wv-gravity__value--og">{og === null ? '—' : formatGravity(og)}</span>
        </div>
        <div>
          <span className="wv-gravity__label">Current</span>
          <span className="wv-gravity__value">{sg === null ? '—' : formatGravity(sg)}</span>
        </div>
      </div>
      <div className="wv-gravity__foot">
        {attenuation === null
          ? 'Apparent attenuation —'
          : `Apparent attenuation ${formatWidgetNumber(attenuation, 1)}%`}
      </div>
    </WidgetBody>
  );
});

function isGravityChannel(channel: ResolvedChannel): boolean {
  return /gravity/i.test(channel.name);
}

const BrewSummaryView = memo(function BrewSummaryView({ channels }: WidgetViewProps) {
  const first = useChannelReading(channels[0]);
  const state =
    first.status === 'live' ? 'Live' : first.status === 'stale' ? 'Stale' : first.status === 'empty' ? 'No data' : '';
  return (
    <WidgetBody status={listStatus(channels)} className="wv-brew">
      <div className="wv-brew__head">
        <svg viewBox="0 0 24 24" className="wv-brew__tank" aria-hidden="true">
          <path d="M6 5q0-3 6-3t6 3v9l-4 6h-4l-4-6z" />
          <path d="M7 10h10v4l-3.5 5h-3L7 14z" className="wv-brew__beer" />
        </svg>
        {/* The frame's title already names the widget: here, the tank (its device). */}
        <span className="wv-brew__title">{channels[0]?.deviceName || 'Tank'}</span>
        {state && <span className={`wv-chip wv-chip--${first.status}`}>{state}</span>}
      </div>
      <div className="wv-rows wv-rows--inline">
        {channels.map((channel) => (
          <ChannelRow
            key={`${channel.deviceId}:${channel.code}`}
            channel={channel}
            units={isGravityChannel(channel) ? '' : /temp/i.test(channel.name) ? '°C' : ''}
            gravity={isGravityChannel(channel)}
          />
        ))}
      </div>
    </WidgetBody>
  );
});

function ValueIcon() {
  return (
    <PickerIcon>
      <text x="24" y="22" fontSize="16" fontWeight="700" textAnchor="middle" fill="currentColor">
        42.7
      </text>
    </PickerIcon>
  );
}

function TextAndNumberIcon() {
  return (
    <PickerIcon fill="currentColor">
      <rect x="6" y="8" width="18" height="4" rx="2" fillOpacity=".4" />
      <rect x="30" y="7" width="12" height="6" rx="2" />
      <rect x="6" y="20" width="14" height="4" rx="2" fillOpacity=".4" />
      <rect x="30" y="19" width="12" height="6" rx="2" />
    </PickerIcon>
  );
}

function IndicatorIcon() {
  return (
    <PickerIcon>
      <circle cx="24" cy="16" r="12" fill="currentColor" fillOpacity=".2" />
      <circle cx="24" cy="16" r="7" fill="currentColor" />
    </PickerIcon>
  );
}

function LagTimeIcon() {
  return (
    <PickerIcon fill="none" stroke="currentColor" strokeWidth="2">
      <circle cx="24" cy="16" r="11" />
      <path d="M24 9v7l5 3" strokeLinecap="round" />
    </PickerIcon>
  );
}

function CustomTextIcon() {
  return (
    <PickerIcon>
      <text x="24" y="23" fontSize="20" fontWeight="700" textAnchor="middle" fill="currentColor">
        Aa
      </text>
    </PickerIcon>
  );
}

function GravityIcon() {
  return (
    <PickerIcon fill="none" stroke="currentColor" strokeWidth="2">
      <path d="M20 3h8M22 3v6l-6 18a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2l-6-18V3" strokeLinejoin="round" />
      <path d="M18 21h12" />
    </PickerIcon>
  );
}

function BrewSummaryIcon() {
  return (
    <PickerIcon>
      <path d="M8 6q0-3 5-3t5 3v12l-3.5 6h-3L8 18z" fill="currentColor" />
      <rect x="23" y="7" width="18" height="3" rx="1.5" fill="currentColor" fillOpacity=".5" />
      <rect x="23" y="14" width="14" height="3" rx="1.5" fill="currentColor" fillOpacity=".5" />
      <rect x="23" y="21" width="16" height="3" rx="1.5" fill="currentColor" fillOpacity=".5" />
    </PickerIcon>
  );
}

export const valueWidget: WidgetDefinition = {
  type: 'value',
  label: 'Value',
  description: 'The latest value as a big number with its units.',
  role: widgetRole('value'),
  Icon: ValueIcon,
  sections: ['channels', 'arcSegments', 'colours', 'units'],
  maxChannels: 1,
  View: ValueView,
};

export const textAndNumberWidget: WidgetDefinition = {
  type: 'textAndNumber',
  label: 'Text and number',
  description: 'Several channels listed by name with their latest values.',
  role: widgetRole('textAndNumber'),
  Icon: TextAndNumberIcon,
  sections: ['channels', 'units'],
  maxChannels: 6,
  View: TextAndNumberView,
};

export const indicatorWidget: WidgetDefinition = {
  type: 'indicator',
  label: 'Indicator',
  description: 'A lamp that lights while the channel is on; in alert mode it blinks.',
  role: widgetRole('indicator'),
  Icon: IndicatorIcon,
  sections: ['channels', 'switchColours'],
  maxChannels: 1,
  View: IndicatorView,
  Editor: IndicatorEditor,
};

export const lagTimeWidget: WidgetDefinition = {
  type: 'lagTime',
  label: 'Lag time',
  description: "How long ago the channel's last value arrived, and whether it is stale.",
  role: widgetRole('lagTime'),
  Icon: LagTimeIcon,
  sections: ['channels'],
  maxChannels: 1,
  View: LagTimeView,
};

export const customTextWidget: WidgetDefinition = {
  type: 'customText',
  label: 'Custom text',
  description: 'A title or a note in plain text.',
  role: widgetRole('customText'),
  Icon: CustomTextIcon,
  sections: ['text'],
  maxChannels: 0,
  View: CustomTextView,
};

export const brewOriginalGravityWidget: WidgetDefinition = {
  type: 'brewOriginalGravity',
  label: 'Original gravity',
  description: 'Original and current gravity of a batch, to 4 decimals.',
  role: widgetRole('brewOriginalGravity'),
  Icon: GravityIcon,
  sections: ['channels'],
  maxChannels: 2,
  View: BrewOriginalGravityView,
  Editor: OriginalGravityEditor,
};

export const brewSummaryWidget: WidgetDefinition = {
  type: 'brewSummary',
  label: 'Brew tank summary',
  description: 'A fermentation tank at a glance: temperature, gravity and state.',
  role: widgetRole('brewSummary'),
  Icon: BrewSummaryIcon,
  sections: ['channels'],
  maxChannels: 4,
  View: BrewSummaryView,
};
