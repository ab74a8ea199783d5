import { memo, type CSSProperties } from 'react';
import { formatWidgetNumber, isOnValue } from '@fieldlink/domain/widget-values';
import { brewGravityView, brewSummaryView, fermentationLag, formatLag } from '@fieldlink/domain/brew-widgets';
import { formatAbv, formatGravity, isActiveTankState } from '@fieldlink/domain/brew';
import { widgetRole } from '@fieldlink/domain/widgets';
import { formatDateTime } from '@fieldlink/domain/date-format';
import { usePageClock } from '../../../lib/page-time-zone';
import { useNow } from '../../../lib/clock';
import { widgetTitle } from '../model/resolve-channels';
import type { ResolvedChannel, WidgetDefinition, WidgetViewProps } from './widget-definition';
import { IndicatorEditor } from './widget-editors';
import { useBrewTank, type BrewTankReading } from '../hooks/use-brew-tank';
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

function ChannelRow({ channel, units }: { channel: ResolvedChannel; units: string }) {
  const clock = usePageClock();
  const { latest, status } = useChannelReading(channel);
  const value = latest?.value ?? null;
  const text = status === 'gone' ? 'unavailable' : value === null ? '—' : formatValue(value);
  return (
    <div className="wv-rows__row" data-status={status}>
      <span className="wv-rows__name" title={`${channel.deviceName} · ${channel.code}`}>
        {channel.name}
      </span>
      <span className="wv-rows__value">
        {text}
        {units && value !== null && <small>{units}</small>}
        {status === 'stale' && (
          <span className="wv-rows__stale" title={latest ? `Stale: ${formatDateTime(latest.t, clock)}` : 'Stale'}>
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

/** The message a brewing widget shows while its tank is read, or when its device is not a tank. */
function BrewTankMessage({ reading }: { reading: BrewTankReading }) {
  return reading.status === 'loading' ? (
    <div className="wv-message" role="note">
      <span>Reading the tank…</span>
    </div>
  ) : (
    <div className="wv-message" role="note">
      <strong>Not a brewing tank</strong>
      <span>Choose a channel of a fermentation tank.</span>
    </div>
  );
}

/** Lag time (§3 lagTime): how long the batch took from its start to fermenting, or has waited so far. */
const LagTimeView = memo(function LagTimeView({ channels }: WidgetViewProps) {
  const clock = usePageClock();
  const { status } = useChannelReading(channels[0]);
  const reading = useBrewTank(channels[0]?.deviceId);
  const now = useNow();
  const lag = reading.status === 'tank' ? fermentationLag(reading.tank, now) : null;
  const fermentingSince =
    reading.status === 'tank'
      ? reading.tank.batchInfo?.transitions.find((transition) => transition.state === 'FERMENTING')?.timestamp
      : undefined;
  return (
    <WidgetBody status={status === 'unbound' || status === 'gone' ? status : 'live'} className="wv-lag">
      {reading.status !== 'tank' ? (
        <BrewTankMessage reading={reading} />
      ) : (
        <>
          <div className="wv-lag__age">
            <ClockGlyph />
            <span>{lag ? formatLag(lag.ms) : 'No batch'}</span>
          </div>
          <div className="wv-lag__detail">
            <span
              className={`wv-dot ${lag?.running ? 'wv-dot--warning' : lag ? 'wv-dot--success' : 'wv-dot--muted'}`}
            />
            {lag === null
              ? `${reading.tank.name}: no batch running`
              : lag.running
                ? 'Waiting for fermentation'
                : 'Fermenting since'}
            {lag && !lag.running && fermentingSince !== undefined && (
              <time dateTime={new Date(fermentingSince).toISOString()}>{formatDateTime(fermentingSince, clock)}</time>
            )}
          </div>
        </>
      )}
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

/** Original gravity (§3 brewOriginalGravity): the batch's original gravity, the gravity now and the ABV. */
const BrewOriginalGravityView = memo(function BrewOriginalGravityView({ channels }: WidgetViewProps) {
  const { status } = useChannelReading(channels[0]);
  const reading = useBrewTank(channels[0]?.deviceId);
  const view = reading.status === 'tank' ? brewGravityView(reading.tank) : null;
  return (
    <WidgetBody status={status === 'unbound' || status === 'gone' ? status : 'live'} className="wv-gravity">
      {reading.status !== 'tank' || view === null ? (
        <BrewTankMessage reading={reading} />
      ) : (
        <>
          <div className="wv-gravity__pair">
            <div>
              <span className="wv-gravity__label">Original</span>
              <span className="wv-gravity__value wv-gravity__value--og">{formatGravity(view.original)}</span>
            </div>
            <div>
              <span className="wv-gravity__label">{view.abv?.source === 'estimate' ? 'Estimated' : 'Current'}</span>
              <span className="wv-gravity__value">{formatGravity(view.current)}</span>
            </div>
          </div>
          <div className="wv-gravity__foot">
            {reading.tank.batchInfo === null
              ? `${reading.tank.name}: no batch running`
              : `ABV ${formatAbv(view.abv)} · attenuation ${
                  view.attenuation === null ? '–' : `${formatWidgetNumber(view.attenuation, 1)} %`
                }`}
          </div>
        </>
      )}
    </WidgetBody>
  );
});

/** Brew summary (§3 brewSummary): a tank of the brewing model at a glance. */
const BrewSummaryView = memo(function BrewSummaryView({ channels }: WidgetViewProps) {
  const { status } = useChannelReading(channels[0]);
  const reading = useBrewTank(channels[0]?.deviceId);
  const now = useNow();
  const tank = reading.status === 'tank' ? reading.tank : null;
  const temperature = useChannelReading(
    tank && channels[0] ? { ...channels[0], code: tank.channelsMap.temperature, name: 'Temperature' } : undefined,
  );
  const view = tank ? brewSummaryView(tank, now) : null;
  return (
    <WidgetBody status={status === 'unbound' || status === 'gone' ? status : 'live'} className="wv-brew">
      {tank === null || view === null ? (
        <BrewTankMessage reading={reading} />
      ) : (
        <>
          <div className="wv-brew__head">
            <svg viewBox="0 0 24 24" className="wv-brew__tank" aria-hidden="true">
              <path d="M6 5q0-3 6-3t6 3v9l-4 6h-4l-4-6z" />
              <path d="M7 10h10v4l-3.5 5h-3L7 14z" className="wv-brew__beer" />
            </svg>
            <span className="wv-brew__title">{tank.name}</span>
            <span className={`wv-chip wv-chip--${isActiveTankState(tank.state) ? 'live' : 'stale'}`}>
              {view.stateLabel}
            </span>
          </div>
          <div className="wv-rows wv-rows--inline">
            <div className="wv-rows__row">
              <span className="wv-rows__name">Beer</span>
              <span className="wv-rows__value">
                {view.beerName === null ? 'No batch' : view.style ? `${view.beerName} · ${view.style}` : view.beerName}
              </span>
            </div>
            {view.day !== null && (
              <div className="wv-rows__row">
                <span className="wv-rows__name">Day</span>
                <span className="wv-rows__value">{view.day}</span>
              </div>
            )}
            <div className="wv-rows__row">
              <span className="wv-rows__name">Temperature</span>
              <span className="wv-rows__value">
                {temperature.latest ? `${formatWidgetNumber(temperature.latest.value, 1)} °C` : '—'}
              </span>
            </div>
            <div className="wv-rows__row">
              <span className="wv-rows__name">Gravity</span>
              <span className="wv-rows__value">{formatGravity(view.current)}</span>
            </div>
            <div className="wv-rows__row">
              <span className="wv-rows__name">ABV</span>
              <span className="wv-rows__value">{formatAbv(view.abv)}</span>
            </div>
          </div>
        </>
      )}
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
  description: 'How long a batch took from its start to fermenting, or has waited so far.',
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
  description: 'Original and current gravity of a tank’s batch, to 4 decimals, with its ABV.',
  role: widgetRole('brewOriginalGravity'),
  Icon: GravityIcon,
  sections: ['channels'],
  maxChannels: 1,
  View: BrewOriginalGravityView,
};

export const brewSummaryWidget: WidgetDefinition = {
  type: 'brewSummary',
  label: 'Brew tank summary',
  description: 'A fermentation tank at a glance: its batch, state, temperature, gravity and ABV.',
  role: widgetRole('brewSummary'),
  Icon: BrewSummaryIcon,
  sections: ['channels'],
  maxChannels: 1,
  View: BrewSummaryView,
};
