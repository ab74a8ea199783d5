import { PHONE_QUERY, useMediaQuery } from '../../../lib/use-media-query';

const pad = (n: number) => String(n).padStart(2, '0');
/** `DD/MM` (§9 date display), of the UTC day the metric covers. */
const dayLabel = (t: number) => {
  const date = new Date(t);
  return `${pad(date.getUTCDate())}/${pad(date.getUTCMonth() + 1)}`;
};

export interface DailyChartProps {
  title: string;
  testId: string;
  days: readonly { timestamp: number; value: number | null }[];
  /** The text of a value (bar tops and hover titles). */
  format: (value: number) => string;
  tone: 'danger' | 'warning';
}

const WIDTH = 560;
/**
 * On a phone the chart is drawn about as wide as it is shown, so its 10 px labels stay about 10 px
 * (at 560 they were drawn at 6 px): a label every second day (the last day always has one), and a
 * bar's value in its hover title only.
 */
const PHONE_WIDTH = 340;
const HEIGHT = 180;
const PAD_BOTTOM = 22;
const PAD_TOP = 18;

/** One bar per day (the overview's 14 days); a day without a value leaves its slot empty. */
export function DailyChart({ title, testId, days, format, tone }: DailyChartProps) {
  const phone = useMediaQuery(PHONE_QUERY);
  const width = phone ? PHONE_WIDTH : WIDTH;
  const max = Math.max(0, ...days.map((day) => day.value ?? 0));
  const slot = width / Math.max(1, days.length);
  const plot = HEIGHT - PAD_BOTTOM - PAD_TOP;
  return (
    <section className="fl-card inv-chart-card" data-testid={testId}>
      <h2>{title}</h2>
      <svg className={`inv-daily inv-daily--${tone}`} viewBox={`0 0 ${width} ${HEIGHT}`} role="img" aria-label={title}>
        <line x1={0} x2={width} y1={HEIGHT - PAD_BOTTOM} y2={HEIGHT - PAD_BOTTOM} className="inv-daily__axis" />
        {days.map((day, index) => {
          const height = max > 0 && day.value !== null ? (day.value / max) * plot : 0;
          const x = index * slot + slot * 0.18;
          const y = HEIGHT - PAD_BOTTOM - height;
          return (
            <g key={day.timestamp}>
              <title>{`${dayLabel(day.timestamp)}: ${day.value === null ? 'no data' : format(day.value)}`}</title>
              {day.value !== null && (
                <rect x={x} y={y} width={slot * 0.64} height={height} rx={3} className="inv-daily__bar" />
              )}
              {day.value !== null && !phone && (
                <text x={x + slot * 0.32} y={y - 4} className="inv-daily__value">
                  {format(day.value)}
                </text>
              )}
              {(!phone || (days.length - 1 - index) % 2 === 0) && (
                <text x={x + slot * 0.32} y={HEIGHT - 6} className="inv-daily__label">
                  {dayLabel(day.timestamp)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
    </section>
  );
}
