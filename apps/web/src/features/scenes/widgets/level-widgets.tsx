import { memo, useId } from 'react';
import type { Widget } from '@fieldlink/api/scenes';
import { arcSegmentBands, valueFraction } from '@fieldlink/domain/widget-values';
import { widgetRole } from '@fieldlink/domain/widgets';
import type { ResolvedChannel, WidgetDefinition, WidgetViewProps } from './widget-definition';
import {
  formatValue,
  PickerIcon,
  themeColour,
  unitsOf,
  useChannelReading,
  valueColour,
  WidgetBody,
} from './widget-kit';

/** Levels filled along a scale: tanks, the conical fermenter, thermometer, vertical and progress bars. */

function percentText(fraction: number): string {
  return `${Math.round(fraction * 100)}%`;
}

function ValueCaption({
  widget,
  channel,
  value,
  x,
  fraction,
}: {
  widget: Widget;
  channel: ResolvedChannel | undefined;
  value: number | null;
  x: number;
  fraction: number;
}) {
  const units = unitsOf(widget, channel);
  return (
    <>
      <text x={x} y="70" fontSize="32" textAnchor="middle" className="wv-text-value">
        {value === null ? '—' : percentText(fraction)}
      </text>
      {/* The reading itself, unless it is already a percentage the fill says. */}
      {units !== '%' && (
        <text x={x} y="94" fontSize="14" textAnchor="middle" className="wv-text-unit">
          {value === null ? '' : `${formatValue(value)}${units ? ` ${units}` : ''}`}
        </text>
      )}
    </>
  );
}

interface TankShape {
  /** Outline of the vessel. */
  outline: string;
  /** Top and bottom of the liquid column, in SVG units. */
  top: number;
  bottom: number;
}

// A vertical cylinder: elliptical roof and floor.
const CYLINDER: TankShape = {
  outline: 'M22 26 A38 10 0 0 1 98 26 V124 A38 10 0 0 1 22 124 Z',
  top: 18,
  bottom: 134,
};

// A fermenter (cylindro-conical vessel): domed top, straight body, a cone to the outlet.
const CONICAL: TankShape = {
  outline: 'M24 30 Q24 12 60 12 Q96 12 96 30 V88 L66 128 H54 L24 88 Z',
  top: 12,
  bottom: 128,
};

function TankGraphic({
  shape,
  fraction,
  hasValue,
  colour,
  conical,
}: {
  shape: TankShape;
  fraction: number;
  hasValue: boolean;
  colour: string;
  conical: boolean;
}) {
  const id = useId();
  const height = shape.bottom - shape.top;
  return (
    <g>
      <defs>
        <clipPath id={`${id}-clip`}>
          <path d={shape.outline} />
        </clipPath>
        <linearGradient id={`${id}-shine`} x1="0" x2="1" y1="0" y2="0">
          <stop offset="0" stopColor="#fff" stopOpacity="0.05" />
          <stop offset="0.3" stopColor="#fff" stopOpacity="0.28" />
          <stop offset="0.55" stopColor="#fff" stopOpacity="0.02" />
          <stop offset="1" stopColor="#000" stopOpacity="0.12" />
        </linearGradient>
      </defs>
      {conical && (
        <g className="wv-tank__legs">
          <path d="M30 96 L26 144 M90 96 L94 144" />
        </g>
      )}
      <path d={shape.outline} className="wv-tank__vessel" />
      <g clipPath={`url(#${id}-clip)`}>
        {hasValue && (
          <g className="wv-tank__liquid" style={{ transform: `translateY(${(1 - fraction) * height}px)` }}>
            <rect x="0" y={shape.top} width="120" height={height + 4} style={{ fill: colour }} />
            <rect x="0" y={shape.top} width="120" height="3" className="wv-tank__surface" />
          </g>
        )}
        <rect x="0" y="0" width="120" height="150" fill={`url(#${id}-shine)`} />
      </g>
      {[0.25, 0.5, 0.75].map((f) => {
        const y = shape.bottom - f * height;
        return <line key={f} x1={conical ? 90 : 92} x2={conical ? 96 : 98} y1={y} y2={y} className="wv-tick" />;
      })}
      <path d={shape.outline} className="wv-tank__rim" />
      {!conical && <path d="M22 26 A38 10 0 0 0 98 26" className="wv-tank__rim" />}
    </g>
  );
}

function makeTankView(conical: boolean) {
  return memo(function TankView({ widget, channels }: WidgetViewProps) {
    const { latest, status } = useChannelReading(channels[0]);
    const value = latest?.value ?? null;
    const fraction = value === null ? 0 : valueFraction(value, widget.min, widget.max);
    const colour = valueColour(widget, value, 'var(--fl-info)');
    return (
      <WidgetBody status={status} t={latest?.t} className="wv-tank">
        <svg className="wv-svg" viewBox="0 0 220 150" role="img" aria-label={`Level ${percentText(fraction)}`}>
          <TankGraphic
            shape={conical ? CONICAL : CYLINDER}
            fraction={fraction}
            hasValue={value !== null}
            colour={colour}
            conical={conical}
          />
          <ValueCaption widget={widget} channel={channels[0]} value={value} x={165} fraction={fraction} />
        </svg>
      </WidgetBody>
    );
  });
}

const TankView = makeTankView(false);
const TankConicalView = makeTankView(true);

const ThermView = memo(function ThermView({ widget, channels }: WidgetViewProps) {
  const { latest, status } = useChannelReading(channels[0]);
  const value = latest?.value ?? null;
  const fraction = value === null ? 0 : valueFraction(value, widget.min, widget.max);
  const colour = valueColour(widget, value, 'var(--fl-danger)');
  const units = unitsOf(widget, channels[0]);
  const [top, bottom] = [14, 104];
  const ticks = [0, 0.25, 0.5, 0.75, 1];
  return (
    <WidgetBody status={status} t={latest?.t} className="wv-therm">
      <svg className="wv-svg" viewBox="0 0 200 150" role="img" aria-label={`${formatValue(value)} ${units}`}>
        <rect x="46" y={top - 6} width="24" height={bottom - top + 20} rx="12" className="wv-therm__glass" />
        <circle cx="58" cy="124" r="20" className="wv-therm__glass" />
        <rect x="53" y={top} width="10" height={bottom - top + 14} rx="5" className="wv-track-fill" />
        <rect
          x="53"
          y={bottom - fraction * (bottom - top)}
          width="10"
          height={fraction * (bottom - top) + 14}
          rx="5"
          className="wv-therm__column"
          style={{ fill: value === null ? 'var(--fl-border)' : colour }}
        />
        <circle
          cx="58"
          cy="124"
          r="14"
          style={{ fill: value === null ? 'var(--fl-border)' : colour }}
          className="wv-therm__bulb"
        />
        <circle cx="53" cy="119" r="4" fill="#fff" fillOpacity="0.35" />
        {ticks.map((f) => {
          const y = bottom - f * (bottom - top);
          return (
            <g key={f}>
              <line x1="74" x2={f === 0 || f === 1 || f === 0.5 ? 84 : 80} y1={y} y2={y} className="wv-tick" />
              {(f === 0 || f === 1) && (
                <text x="88" y={y + 4} fontSize="11" className="wv-text-scale">
                  {formatValue(f === 0 ? widget.min : widget.max)}
                </text>
              )}
            </g>
          );
        })}
        <text x="150" y="74" fontSize="30" textAnchor="middle" className="wv-text-value">
          {formatValue(value)}
        </text>
        <text x="150" y="96" fontSize="14" textAnchor="middle" className="wv-text-unit">
          {units}
        </text>
      </svg>
    </WidgetBody>
  );
});

const VerticalBarView = memo(function VerticalBarView({ widget, channels }: WidgetViewProps) {
  const { latest, status } = useChannelReading(channels[0]);
  const value = latest?.value ?? null;
  const fraction = value === null ? 0 : valueFraction(value, widget.min, widget.max);
  const colour = valueColour(widget, value);
  const bands = arcSegmentBands(widget.arcSegments, widget.min, widget.max);
  const [top, bottom] = [12, 138];
  const span = bottom - top;
  return (
    <WidgetBody status={status} t={latest?.t} className="wv-vbar">
      <svg
        className="wv-svg"
        viewBox="0 0 200 150"
        role="img"
        aria-label={`${formatValue(value)} ${unitsOf(widget, channels[0])}`}
      >
        <rect x="58" y={top} width="34" height={span} rx="6" className="wv-track-fill" />
        {bands.map((band) => (
          <rect
            key={`${band.from}-${band.color}`}
            x="96"
            y={bottom - band.to * span}
            width="4"
            height={(band.to - band.from) * span}
            style={{ fill: themeColour(band.color, 'var(--fl-muted)') }}
          />
        ))}
        {value !== null && (
          <rect
            x="58"
            y={top}
            width="34"
            height={span}
            rx="6"
            className="wv-vbar__fill"
            style={{ fill: colour, transform: `scaleY(${fraction})` }}
          />
        )}
        {[0, 0.5, 1].map((f) => (
          <text key={f} x="50" y={bottom - f * span + 4} fontSize="11" textAnchor="end" className="wv-text-scale">
            {formatValue(widget.min + f * (widget.max - widget.min))}
          </text>
        ))}
        <text x="150" y="74" fontSize="28" textAnchor="middle" className="wv-text-value">
          {formatValue(value)}
        </text>
        <text x="150" y="96" fontSize="14" textAnchor="middle" className="wv-text-unit">
          {unitsOf(widget, channels[0])}
        </text>
      </svg>
    </WidgetBody>
  );
});

const ProgressBarView = memo(function ProgressBarView({ widget, channels }: WidgetViewProps) {
  const { latest, status } = useChannelReading(channels[0]);
  const value = latest?.value ?? null;
  const fraction = value === null ? 0 : valueFraction(value, widget.min, widget.max);
  const colour = valueColour(widget, value);
  const units = unitsOf(widget, channels[0]);
  return (
    <WidgetBody status={status} t={latest?.t} className="wv-progress">
      <div className="wv-progress__head">
        <span className="wv-progress__value">
          {formatValue(value)}
          {units && <small>{units}</small>}
        </span>
        {/* A value in percent already says what the fill says. */}
        {units !== '%' && <span className="wv-progress__percent">{value === null ? '' : percentText(fraction)}</span>}
      </div>
      <div
        className="wv-progress__track"
        role="progressbar"
        aria-valuemin={widget.min}
        aria-valuemax={widget.max}
        aria-valuenow={value ?? undefined}
      >
        <div className="wv-progress__fill" style={{ background: colour, transform: `scaleX(${fraction})` }} />
      </div>
      <div className="wv-progress__scale">
        <span>{formatValue(widget.min)}</span>
        <span>{formatValue(widget.max)}</span>
      </div>
    </WidgetBody>
  );
});

function TankIcon() {
  return (
    <PickerIcon>
      <path d="M15 6a9 3 0 0 1 18 0v20a9 3 0 0 1-18 0z" fill="none" stroke="currentColor" strokeWidth="2" />
      <path d="M16 15h16v11a8 2.5 0 0 1-16 0z" fill="currentColor" />
    </PickerIcon>
  );
}

function TankConicalIcon() {
  return (
    <PickerIcon>
      <path d="M15 6q0-3 9-3t9 3v13l-7 9h-4l-7-9z" fill="none" stroke="currentColor" strokeWidth="2" />
      <path d="M16 13h16v6l-6.5 8h-3L16 19z" fill="currentColor" />
    </PickerIcon>
  );
}

function ThermIcon() {
  return (
    <PickerIcon>
      <path d="M21 5a3 3 0 0 1 6 0v15a6 6 0 1 1-6 0z" fill="none" stroke="currentColor" strokeWidth="2" />
      <circle cx="24" cy="24" r="3.5" fill="currentColor" />
      <rect x="23" y="11" width="2" height="12" fill="currentColor" />
    </PickerIcon>
  );
}

function VerticalBarIcon() {
  return (
    <PickerIcon fill="currentColor">
      <rect x="18" y="3" width="12" height="26" rx="2" fillOpacity=".3" />
      <rect x="18" y="12" width="12" height="17" rx="2" />
    </PickerIcon>
  );
}

function ProgressBarIcon() {
  return (
    <PickerIcon fill="currentColor">
      <rect x="5" y="13" width="38" height="7" rx="3.5" fillOpacity=".3" />
      <rect x="5" y="13" width="24" height="7" rx="3.5" />
    </PickerIcon>
  );
}

export const tankWidget: WidgetDefinition = {
  type: 'tank',
  label: 'Tank',
  description: 'A cylindrical tank filled to the level of min..max, as a percentage.',
  role: widgetRole('tank'),
  Icon: TankIcon,
  sections: ['channels', 'range', 'arcSegments', 'colours', 'units'],
  maxChannels: 1,
  View: TankView,
};

export const tankConicalWidget: WidgetDefinition = {
  type: 'tankConical',
  label: 'Conical tank',
  description: 'A conical-bottom fermenter filled to the level of min..max.',
  role: widgetRole('tankConical'),
  Icon: TankConicalIcon,
  sections: ['channels', 'range', 'arcSegments', 'colours', 'units'],
  maxChannels: 1,
  View: TankConicalView,
};

export const thermWidget: WidgetDefinition = {
  type: 'therm',
  label: 'Thermometer',
  description: 'A temperature on a thermometer scale from min to max.',
  role: widgetRole('therm'),
  Icon: ThermIcon,
  sections: ['channels', 'range', 'arcSegments', 'colours', 'units'],
  maxChannels: 1,
  View: ThermView,
};

export const verticalBarWidget: WidgetDefinition = {
  type: 'verticalBar',
  label: 'Vertical bar',
  description: 'A value as a vertical bar on a min..max scale, with its arc segments beside it.',
  role: widgetRole('verticalBar'),
  Icon: VerticalBarIcon,
  sections: ['channels', 'range', 'arcSegments', 'colours', 'units'],
  maxChannels: 1,
  View: VerticalBarView,
};

export const progressBarWidget: WidgetDefinition = {
  type: 'progressBar',
  label: 'Progress bar',
  description: 'A value as a horizontal bar between min and max.',
  role: widgetRole('progressBar'),
  Icon: ProgressBarIcon,
  sections: ['channels', 'range', 'arcSegments', 'colours', 'units'],
  maxChannels: 1,
  View: ProgressBarView,
};
