import type { Device } from '@fieldlink/api/device';
import { deviceTimeLabel, deviceTimeZone } from '@fieldlink/domain/date-format';
import type { SprayerAlarm } from '@fieldlink/domain/spray';
import { OperateStatus } from '../../../components/operate/operate-status';
import { Button } from '../../../components/ui/button';
import { InlineAlert } from '../../../components/ui/inline-alert';
import { useReaderClock } from '../../../lib/page-time-zone';
import type { SprayerCardState } from '../hooks/use-sprayer-card';
import type { SprayerControls } from '../hooks/use-sprayer-controls';
import type { SprayerReadings } from '../model/sprayer-card';
import { formatSeconds, nextSprayText } from '../model/spray-view';
import { TankGauge } from './tank-gauge';

/** The tank gauge with its level and the refill and empty marks. */
export function SprayerTank({ readings }: { readings: SprayerReadings }) {
  const { level, emptyLevel, refillLevel } = readings;
  return (
    <div className="spray-card__tank">
      <TankGauge level={level} emptyLevel={emptyLevel} refillLevel={refillLevel} />
      <div className="spray-card__level">
        <span className="spray-card__big">{level === undefined ? '—' : `${level.toFixed(1)} %`}</span>
        <span className="fl-muted">tank level</span>
        <span className="spray-card__marks">
          <span className="spray-card__mark spray-card__mark--refill">Refill {refillLevel ?? '—'} %</span>
          <span className="spray-card__mark spray-card__mark--empty">Empty {emptyLevel ?? '—'} %</span>
        </span>
      </div>
    </div>
  );
}

/** Today's sprays per zone, the next scheduled spray, skip-spray, pump pressure and wind. */
export function SprayerFacts({ device, card }: { device: Device; card: SprayerCardState }) {
  const clock = useReaderClock();
  const { readings, next, nextSteps } = card;
  const { zoneOn, spraysToday, secondsToday, maxRates, stepSeconds } = readings;
  const { skipEnabled, skipActive, skipLeft, skipHours, pressure, wind, windLimit } = readings;
  return (
    <div className="spray-card__facts">
      <table className="spray-zones">
        <ZonesHead />
        <tbody>
          {([0, 1] as const).map((zone) => (
            <tr key={zone} className={zoneOn[zone] ? 'is-spraying' : undefined}>
              <th scope="row">
                <span className={`spray-zone-dot${zoneOn[zone] ? ' is-on' : ''}`} aria-hidden="true" />
                Zone {zone + 1}
                {zoneOn[zone] && <span className="fl-visually-hidden"> spraying</span>}
              </th>
              <td data-testid={`sprays-today-z${zone + 1}`}>{spraysToday[zone] ?? '—'}</td>
              <td>{secondsToday[zone] === undefined ? '—' : formatSeconds(secondsToday[zone])}</td>
              <td>{maxRates[zone] === undefined ? '—' : `${maxRates[zone]} L/min`}</td>
            </tr>
          ))}
        </tbody>
      </table>

      <dl className="spray-facts">
        <div>
          <dt>Next spray</dt>
          <dd data-testid="next-spray">
            {next ? (
              <>
                {nextSprayText(next, clock)}{' '}
                <span className="spray-facts__meta">{deviceTimeLabel(deviceTimeZone(device))}</span>
                <span className="spray-facts__meta">
                  T-{next.index + 1}
                  {stepSeconds !== undefined && ` · ${formatSeconds(nextSteps * stepSeconds)} per zone`}
                </span>
                {skipActive && <span className="spray-facts__note"> (skipped while skip-spray is active)</span>}
              </>
            ) : (
              'No spray scheduled'
            )}
          </dd>
        </div>
        <div>
          <dt>Skip-spray</dt>
          <dd data-testid="skip-spray">
            {skipEnabled ? 'Enabled' : 'Disabled'} ·{' '}
            {skipActive
              ? `active, ${skipLeft === undefined ? '' : `${formatSeconds(skipLeft * 60)} left`}`
              : 'not active'}
            {skipHours !== undefined && <span className="fl-muted"> · skip time {skipHours} h</span>}
          </dd>
        </div>
        <div>
          <dt>Pump</dt>
          <dd>{pressure === undefined ? '—' : `${pressure.toFixed(2)} bar`}</dd>
        </div>
        <div>
          <dt>Wind</dt>
          <dd>
            {wind === undefined ? '—' : `${wind.toFixed(1)} km/h`}
            {windLimit !== undefined && <span className="fl-muted"> · limit {windLimit} km/h</span>}
          </dd>
        </div>
      </dl>
    </div>
  );
}

/**
 * Manual spray, test spray, skip or resume, and the schedules: each disabled, saying why, while the
 * user may not operate the unit, it is offline, a command is in flight or an alarm blocks it.
 */
export function SprayerButtons({
  card,
  controls,
  onEditSchedules,
}: {
  card: SprayerCardState;
  controls: SprayerControls;
  onEditSchedules: () => void;
}) {
  const { offline, spraying, blockedManual, blockedTest } = card;
  const { skipActive, skipEnabled, skipHours } = card.readings;
  const { canOperate, busy, run, failure } = controls;
  const held = !canOperate || offline || busy;
  return (
    <section
      className="spray-card__controls"
      aria-label="Manual spray control"
      title={controls.operateRefusal ?? undefined}
    >
      <div className="spray-card__buttons">
        {spraying ? (
          <Button size="sm" variant="danger" disabled={held} onClick={() => run('stop')}>
            Stop spraying
          </Button>
        ) : (
          <>
            <Button
              size="sm"
              variant="primary"
              disabled={held || blockedManual !== null}
              busy={controls.sendingZone === 1}
              onClick={() => run('sprayZone1')}
            >
              Spray zone 1
            </Button>
            <Button
              size="sm"
              disabled={held || blockedManual !== null}
              busy={controls.sendingZone === 2}
              onClick={() => run('sprayZone2')}
            >
              Spray zone 2
            </Button>
            <Button
              size="sm"
              variant="ghost"
              disabled={held || blockedTest !== null}
              busy={controls.testing}
              onClick={() => run('test')}
            >
              Test spray
            </Button>
          </>
        )}
        {skipActive ? (
          <Button size="sm" variant="ghost" disabled={held} onClick={() => run('resume')}>
            Resume sprays
          </Button>
        ) : (
          <Button
            size="sm"
            variant="ghost"
            disabled={held || !skipEnabled}
            title={skipEnabled ? undefined : 'Skip-spray is disabled on this unit (GPF-9).'}
            onClick={() => run('skip')}
          >
            Skip sprays{skipHours === undefined ? '' : ` for ${skipHours} h`}
          </Button>
        )}
        <Button
          size="sm"
          variant="secondary"
          className="spray-card__edit"
          title={controls.configureRefusal ?? undefined}
          onClick={onEditSchedules}
        >
          {controls.canConfigure ? 'Edit schedules' : 'Schedules'}
        </Button>
      </div>
      <OperateStatus progress={busy ? 'sending' : controls.done ? 'done' : null} />
      {failure?.status === 'error' && (
        <InlineAlert tone="error">
          <span className="spray-card__failure">
            {failure.message}
            <button type="button" className="spray-link" onClick={controls.dismiss}>
              Dismiss
            </button>
          </span>
        </InlineAlert>
      )}
    </section>
  );
}

/** The sprayer's active alarms, those counted on the card marked. */
export function SprayerAlarms({ alarms, counted }: { alarms: readonly SprayerAlarm[]; counted: readonly number[] }) {
  return (
    <section className="spray-card__alarms" aria-label="Alarms">
      {alarms.length === 0 ? (
        <p className="fl-muted spray-card__no-alarms">No sprayer alarms.</p>
      ) : (
        <ul className="spray-alarms" data-testid="sprayer-alarms">
          {alarms.map((alarm) => (
            <li key={alarm.bit} className={`spray-alarm${counted.includes(alarm.bit) ? ' is-counted' : ''}`}>
              <span className="spray-alarm__name">
                {alarm.bit} {alarm.name}
              </span>
              <span className="spray-alarm__text">{alarm.explanation}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The zone table's column heads, on a card and on its placeholder alike. */
export function ZonesHead() {
  return (
    <thead>
      <tr>
        <th scope="col">Zone</th>
        <th scope="col">Sprays today</th>
        <th scope="col">Time today</th>
        <th scope="col">Max rate</th>
      </tr>
    </thead>
  );
}
