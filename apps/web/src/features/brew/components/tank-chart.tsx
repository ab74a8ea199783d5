import { Suspense, lazy, useMemo } from 'react';
import type { Batch, Tank } from '@fieldlink/api/brew';
import { chartAxisLabel, chartColour } from '@fieldlink/domain/chart';
import { Spinner } from '../../../components/ui/spinner';
import type { ChartLine, ChartMarker, ChartYAxis } from '../../../components/charts/log-chart';
import { isEmptyAligned } from '../../../components/charts/chart-series';
import { tankChartLogs } from '../model/tank-chart';

// uPlot is loaded only when a chart is drawn.
const LogChart = lazy(async () => ({ default: (await import('../../../components/charts/log-chart')).LogChart }));

const LINES: readonly ChartLine[] = [
  { code: 'temperature', label: 'Temperature °C', colour: chartColour(0), scale: 'temp' },
  { code: 'temperatureSetpoint', label: 'Setpoint °C', colour: '#94a3b8', scale: 'temp' },
  { code: 'gravity', label: 'Estimated gravity', colour: chartColour(1), scale: 'gravity' },
  { code: 'userGravity', label: 'Gravity readings', colour: '#b7791f', scale: 'gravity' },
];
const AXES: readonly ChartYAxis[] = [
  { scale: 'temp', side: 'left', label: chartAxisLabel('Temperature', '°C'), range: null },
  { scale: 'gravity', side: 'right', label: chartAxisLabel('Gravity', 'SG'), range: null },
];

/**
 * The tank's 7-day log from 10 minutes before the batch (§9), as the tank carries it (§3
 * rawDeviceLogs): temperature and setpoint, the gravity estimate and the brewer's readings, with
 * annotations as plot lines (blue for tasting notes). Until the tank's view has read it, a spinner;
 * with no reading at all yet, "No readings yet"; an axis without readings says so (LogChart).
 */
export function TankChart({ batch, logs }: { batch: Batch; logs: Tank['rawDeviceLogs'] }) {
  const aligned = useMemo(() => (logs ? tankChartLogs(logs, batch) : null), [logs, batch]);
  const markers = useMemo(
    (): ChartMarker[] => [
      { kind: 'line', t: batch.date.start, text: 'Batch start', colour: '#CA9D43', width: 2 },
      ...batch.annotations.map((annotation): ChartMarker => ({
        kind: 'line',
        t: annotation.timestamp,
        text: annotation.text,
        colour: annotation.color,
      })),
    ],
    [batch],
  );
  return (
    <section className="fl-card brew-chart" aria-label="Tank log">
      <div className="brew-chart__legend">
        {LINES.map((line) => (
          <span key={line.code}>
            <i style={{ background: line.colour }} />
            {line.label}
          </span>
        ))}
      </div>
      <div className="brew-chart__plot">
        {!logs || !aligned ? (
          <Spinner size={24} label="Loading the tank log" />
        ) : isEmptyAligned(aligned) ? (
          // A new batch: no made-up 0-100 axes, but what is the case.
          <p className="brew-chart__empty">No readings yet</p>
        ) : (
          <Suspense fallback={<Spinner size={24} label="Loading the chart" />}>
            <LogChart
              logs={aligned}
              lines={LINES}
              axes={AXES}
              markers={markers}
              start={logs.start}
              end={logs.end}
              height={300}
            />
          </Suspense>
        )}
      </div>
    </section>
  );
}
