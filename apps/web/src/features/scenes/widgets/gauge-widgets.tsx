import { memo, type CSSProperties } from 'react';
import {
  arcSegmentBands,
  batteryTone,
  compassOffsetOf,
  compassPoint,
  fanTurnSeconds,
  normaliseHeading,
  signalBarsLit,
  valueFraction,
} from '@fieldlink/domain/widget-values';
import { widgetRole } from '@fieldlink/domain/widgets';
import type { WidgetDefinition, WidgetViewProps } from './widget-definition';
import { CompassEditor } from './widget-editors';
import {
  arcPath,
  formatValue,
  PickerIcon,
  polar,
  themeColour,
  unitsOf,
  useChannelReading,
  valueColour,
  WidgetBody,
} from './widget-kit';

/** Gauges drawn around or along a scale: radial, compass, fan, signal bars and battery. */

// The radial gauge sweeps 240°, from 8 o'clock to 4 o'clock.
const SWEEP_START = -120;
const SWEEP_END = 120;

const RadialView = memo(function RadialView({ widget, channels }: WidgetViewProps) {
  const { latest, status } = useChannelReading(channels[0]);
  const value = latest?.value ?? null;
  const fraction = value === null ? 0 : valueFraction(value, widget.min, widget.max);
  const colour = valueColour(widget, value);
  const bands = arcSegmentBands(widget.arcSegments, widget.min, widget.max);
  const at = (f: number) => SWEEP_START + f * (SWEEP_END - SWEEP_START);
  const [cx, cy, r] = [100, 86, 66];
  const [minX, minY] = polar(cx, cy, r, SWEEP_START);
  const [maxX] = polar(cx, cy, r, SWEEP_END);
  const units = unitsOf(widget, channels[0]);
  return (
    <WidgetBody status={status} t={latest?.t} className="wv-radial">
      <svg className="wv-svg" viewBox="0 0 200 150" role="img" aria-label={`${formatValue(value)} ${units}`}>
        {bands.map((band) => (
          <path
            key={`${band.from}-${band.color}`}
            d={arcPath(cx, cy, r + 13, at(band.from), at(band.to))}
            className="wv-radial__band"
            stroke={themeColour(band.color, 'var(--fl-muted)')}
          />
        ))}
        <path d={arcPath(cx, cy, r, SWEEP_START, SWEEP_END)} className="wv-track" strokeWidth="14" />
        {fraction > 0.001 && (
          <path
            d={arcPath(cx, cy, r, SWEEP_START, at(fraction))}
            className="wv-radial__value"
            stroke={colour}
            strokeWidth="14"
          />
        )}
        {value !== null && (
          <circle
            cx={polar(cx, cy, r, at(fraction))[0]}
            cy={polar(cx, cy, r, at(fraction))[1]}
            r="4.5"
            className="wv-radial__tip"
          />
        )}
        <text x={cx} y={cy + 8} className="wv-text-value" fontSize="34" textAnchor="middle">
          {formatValue(value)}
        </text>
        {units && (
          <text x={cx} y={cy + 28} className="wv-text-unit" fontSize="14" textAnchor="middle">
            {units}
          </text>
        )}
        <text x={minX} y={minY + 20} className="wv-text-scale" fontSize="12" textAnchor="middle">
          {formatValue(widget.min)}
        </text>
        <text x={maxX} y={minY + 20} className="wv-text-scale" fontSize="12" textAnchor="middle">
          {formatValue(widget.max)}
        </text>
      </svg>
    </WidgetBody>
  );
});

const CompassView = memo(function CompassView({ widget, channels }: WidgetViewProps) {
  const { latest, status } = useChannelReading(channels[0]);
  const heading = latest ? normaliseHeading(latest.value, compassOffsetOf(widget.value)) : null;
  const [cx, cy, r] = [75, 75, 62];
  const ticks = Array.from({ length: 24 }, (_, i) => i * 15);
  return (
    <WidgetBody status={status} t={latest?.t} className="wv-compass">
      <svg
        className="wv-svg"
        viewBox="0 0 230 150"
        role="img"
        aria-label={heading === null ? 'No heading' : `${Math.round(heading)}° ${compassPoint(heading)}`}
      >
        <circle cx={cx} cy={cy} r={r} className="wv-compass__dial" />
        {ticks.map((deg) => {
          const major = deg % 90 === 0;
          const [x1, y1] = polar(cx, cy, r - 3, deg);
          const [x2, y2] = polar(cx, cy, r - (major ? 12 : 7), deg);
          return (
            <line key={deg} x1={x1} y1={y1} x2={x2} y2={y2} className={major ? 'wv-tick wv-tick--major' : 'wv-tick'} />
          );
        })}
        {(['N', 'E', 'S', 'W'] as const).map((label, i) => {
          const [x, y] = polar(cx, cy, r - 24, i * 90);
          return (
            <text
              key={label}
              x={x}
              y={y + 5}
              fontSize="14"
              textAnchor="middle"
              className={label === 'N' ? 'wv-compass__north' : 'wv-text-scale'}
            >
              {label}
            </text>
          );
        })}
        {heading !== null && (
          <g
            className="wv-compass__needle"
            style={{ transform: `rotate(${heading}deg)`, transformOrigin: `${cx}px ${cy}px` }}
          >
            <path d={`M${cx} ${cy - r + 16} L${cx + 7} ${cy} L${cx - 7} ${cy} Z`} className="wv-compass__needle-head" />
            <path d={`M${cx} ${cy + r - 16} L${cx + 7} ${cy} L${cx - 7} ${cy} Z`} className="wv-compass__needle-tail" />
          </g>
        )}
        <circle cx={cx} cy={cy} r="5" className="wv-compass__hub" />
        <text x="190" y="74" fontSize="32" textAnchor="middle" className="wv-text-value">
          {heading === null ? '—' : `${Math.round(heading) % 360}°`}
        </text>
        <text x="190" y="98" fontSize="16" textAnchor="middle" className="wv-text-unit">
          {heading === null ? '' : compassPoint(heading)}
        </text>
      </svg>
    </WidgetBody>
  );
});

const FanView = memo(function FanView({ widget, channels }: WidgetViewProps) {
  const { latest, status } = useChannelReading(channels[0]);
  const value = latest?.value ?? null;
  const turn = value === null ? null : fanTurnSeconds(value, widget.min, widget.max);
  const colour = themeColour(widget.color, 'var(--fl-info)');
  const units = unitsOf(widget, channels[0]);
  const style = { '--wv-fan-turn': `${turn ?? 0}s`, '--wv-colour': colour } as CSSProperties;
  const [cx, cy] = [70, 75];
  const blade = `M${cx} ${cy} C ${cx - 14} ${cy - 20}, ${cx - 10} ${cy - 52}, ${cx + 6} ${cy - 54} C ${cx + 18} ${cy - 50}, ${cx + 14} ${cy - 24}, ${cx} ${cy} Z`;
  return (
    <WidgetBody status={status} t={latest?.t} className={`wv-fan${turn !== null ? ' is-on' : ''}`}>
      <svg
        className="wv-svg"
        viewBox="0 0 220 150"
        role="img"
        aria-label={turn === null ? 'Fan off' : 'Fan on'}
        style={style}
      >
        <circle cx={cx} cy={cy} r="64" className="wv-fan__housing" />
        <circle cx={cx} cy={cy} r="57" className="wv-fan__guard" />
        <g className="wv-fan__rotor" style={{ transformOrigin: `${cx}px ${cy}px` }}>
          {[0, 90, 180, 270].map((deg) => (
            <path key={deg} d={blade} transform={`rotate(${deg} ${cx} ${cy})`} className="wv-fan__blade" />
          ))}
        </g>
        <circle cx={cx} cy={cy} r="9" className="wv-fan__hub" />
        <text x="175" y="74" fontSize="26" textAnchor="middle" className="wv-text-value">
          {value === null ? '—' : turn === null ? 'Off' : formatValue(value)}
        </text>
        <text x="175" y="96" fontSize="14" textAnchor="middle" className="wv-text-unit">
          {value === null ? '' : turn === null ? 'stopped' : units || 'running'}
        </text>
      </svg>
    </WidgetBody>
  );
});

const SIGNAL_BARS = 5;

const SignalView = memo(function SignalView({ widget, channels }: WidgetViewProps) {
  const { latest, status } = useChannelReading(channels[0]);
  const value = latest?.value ?? null;
  const lit = value === null ? 0 : signalBarsLit(value, widget.min, widget.max, SIGNAL_BARS);
  const tone = batteryTone(lit / SIGNAL_BARS);
  const colour = widget.arcSegments.length > 0 || widget.color ? valueColour(widget, value) : `var(--fl-${tone})`;
  const units = unitsOf(widget, channels[0]);
  return (
    <WidgetBody status={status} t={latest?.t} className="wv-signal">
      <svg className="wv-svg" viewBox="0 0 200 150" role="img" aria-label={`${lit} of ${SIGNAL_BARS} bars`}>
        {Array.from({ length: SIGNAL_BARS }, (_, i) => {
          const h = 18 + i * 17;
          return (
            <rect
              key={i}
              x={22 + i * 24}
              y={110 - h}
              width="16"
              height={h}
              rx="3"
              className={i < lit ? 'wv-signal__bar is-lit' : 'wv-signal__bar'}
              style={i < lit ? { fill: colour } : undefined}
            />
          );
        })}
        <text x="82" y="140" fontSize="18" textAnchor="middle" className="wv-text-value">
          {formatValue(value)}
          {units && (
            <tspan className="wv-text-unit" fontSize="12" dx="4">
              {units}
            </tspan>
          )}
        </text>
      </svg>
    </WidgetBody>
  );
});

const BatteryView = memo(function BatteryView({ widget, channels }: WidgetViewProps) {
  const { latest, status } = useChannelReading(channels[0]);
  const value = latest?.value ?? null;
  const fraction = value === null ? 0 : valueFraction(value, widget.min, widget.max);
  const colour = widget.arcSegments.length > 0 ? valueColour(widget, value) : `var(--fl-${batteryTone(fraction)})`;
  const units = unitsOf(widget, channels[0]);
  const inner = 142;
  return (
    <WidgetBody status={status} t={latest?.t} className="wv-battery">
      <svg className="wv-svg" viewBox="0 0 200 150" role="img" aria-label={`Battery ${Math.round(fraction * 100)}%`}>
        <rect x="16" y="22" width="156" height="64" rx="11" className="wv-battery__body" />
        <rect x="175" y="42" width="9" height="24" rx="3" className="wv-battery__cap" />
        <rect x="23" y="29" width={inner} height="50" rx="6" className="wv-track-fill" />
        {value !== null && (
          <rect
            x="23"
            y="29"
            width={inner}
            height="50"
            rx="6"
            className="wv-battery__fill"
            style={{ fill: colour, transform: `scaleX(${fraction})` }}
          />
        )}
        <text x="100" y="124" fontSize="30" textAnchor="middle" className="wv-text-value">
          {value === null ? '—' : `${Math.round(fraction * 100)}%`}
        </text>
        <text x="100" y="144" fontSize="12" textAnchor="middle" className="wv-text-unit">
          {value === null ? '' : `${formatValue(value)}${units ? ` ${units}` : ''}`}
        </text>
      </svg>
    </WidgetBody>
  );
});

function RadialIcon() {
  return (
    <PickerIcon fill="none" strokeLinecap="round">
      <path d="M9 27a16 16 0 1 1 30 0" stroke="currentColor" strokeOpacity=".3" strokeWidth="4" />
      <path d="M9 27a16 16 0 0 1 22-19" stroke="currentColor" strokeWidth="4" />
    </PickerIcon>
  );
}

function CompassIcon() {
  return (
    <PickerIcon fill="none">
      <circle cx="24" cy="16" r="13" stroke="currentColor" strokeWidth="2" />
      <path d="M24 5l4 11h-8z" fill="currentColor" />
      <path d="M24 27l4-11h-8z" fill="currentColor" fillOpacity=".35" />
    </PickerIcon>
  );
}

function FanIcon() {
  return (
    <PickerIcon fill="currentColor">
      <circle cx="24" cy="16" r="14" fill="none" stroke="currentColor" strokeWidth="2" />
      {[0, 90, 180, 270].map((deg) => (
        <path key={deg} d="M24 16c-3-4-2-10 2-10s3 6-2 10z" transform={`rotate(${deg} 24 16)`} />
      ))}
    </PickerIcon>
  );
}

function SignalIcon() {
  return (
    <PickerIcon fill="currentColor">
      {[0, 1, 2, 3].map((i) => (
        <rect key={i} x={12 + i * 7} y={24 - i * 6} width="5" height={6 + i * 6} rx="1" fillOpacity={i < 3 ? 1 : 0.3} />
      ))}
    </PickerIcon>
  );
}

function BatteryIcon() {
  return (
    <PickerIcon>
      <rect x="8" y="9" width="29" height="15" rx="3" fill="none" stroke="currentColor" strokeWidth="2" />
      <rect x="38" y="13" width="3" height="7" rx="1" fill="currentColor" />
      <rect x="11" y="12" width="17" height="9" rx="1" fill="currentColor" />
    </PickerIcon>
  );
}

export const radialWidget: WidgetDefinition = {
  type: 'radial',
  label: 'Radial gauge',
  description: 'A value on an arc between min and max, coloured by its arc segments.',
  role: widgetRole('radial'),
  Icon: RadialIcon,
  sections: ['channels', 'range', 'arcSegments', 'colours', 'units'],
  maxChannels: 1,
  View: RadialView,
};

export const compassWidget: WidgetDefinition = {
  type: 'compass',
  label: 'Compass',
  description: 'A direction such as wind, 0 to 360°, with its compass point.',
  role: widgetRole('compass'),
  Icon: CompassIcon,
  sections: ['channels'],
  maxChannels: 1,
  View: CompassView,
  Editor: CompassEditor,
};

export const fanWidget: WidgetDefinition = {
  type: 'fan',
  label: 'Fan',
  description: 'A fan that turns while its channel is on, faster as the value nears max.',
  role: widgetRole('fan'),
  Icon: FanIcon,
  sections: ['channels', 'range', 'colours', 'units'],
  maxChannels: 1,
  View: FanView,
};

export const signalWidget: WidgetDefinition = {
  type: 'signal',
  label: 'Signal strength',
  description: 'Signal strength as bars lit between min and max.',
  role: widgetRole('signal'),
  Icon: SignalIcon,
  sections: ['channels', 'range', 'arcSegments', 'colours', 'units'],
  maxChannels: 1,
  View: SignalView,
};

export const batteryWidget: WidgetDefinition = {
  type: 'battery',
  label: 'Battery',
  description: 'Charge as a battery filled between min and max, red when low.',
  role: widgetRole('battery'),
  Icon: BatteryIcon,
  sections: ['channels', 'range', 'arcSegments', 'units'],
  maxChannels: 1,
  View: BatteryView,
};
