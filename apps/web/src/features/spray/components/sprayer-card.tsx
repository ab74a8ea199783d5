import { useState } from 'react';
import { Link } from 'react-router';
import type { Device } from '@fieldlink/api/device';
import {
  SPRAYER_CHANNELS as CH,
  activeSprayerAlarms,
  countedSprayerAlarms,
  nextScheduledSpray,
  schedulesFromRegisters,
  sprayBlockedBy,
  weekTimeAt,
} from '@fieldlink/domain/spray';
import { utcOffsetMinutes } from '@fieldlink/domain/time-zone';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { InlineAlert } from '../../../components/ui/inline-alert';
import { OperateStatus } from '../../../components/operate/operate-status';
import { useConfirmedCommand } from '../../../components/operate/use-confirmed-command';
import { useNow } from '../../../lib/clock';
import { useChannelWrite } from '../../../lib/realtime/use-channel-write';
import { realtimeStore } from '../../../lib/realtime/realtime-store';
import { useStore } from '../../../lib/use-store';
import { useDeviceActionRefusal } from '../../../lib/session/use-can';
import { useSprayerLive } from '../hooks/use-sprayer';
import { formatSeconds, nextSprayText } from '../model/spray-view';
import { deviceTimeLabel, deviceTimeZone } from '@fieldlink/domain/date-format';
import { useReaderClock } from '../../../lib/page-time-zone';
import { ScheduleEditorDialog } from './schedule-editor-dialog';
import { TankGauge } from './tank-gauge';

/** One sprayer of the overview: tank, zones, today's sprays, controls, skip-spray, next spray, alarms. */
export function SprayerCard({ device }: { device: Device }) {
  const clock = useReaderClock();
  const live = useSprayerLive(device);
  const latest = useStore(realtimeStore, (s) => s.latest[device.thingName]);
  const value = (code: string) => latest?.[code]?.value;
  const level = value(CH.tankLevel);
  const emptyLevel = value(CH.emptyLevel);
  const refillLevel = value(CH.refillLevel);
  const pressure = value(CH.pumpPressure);
  const wind = value(CH.windSpeed);
  const windLimit = value('sp4');
  const zoneOn = [value(CH.zone1) === 1, value(CH.zone2) === 1];
  const spraysToday = [value(CH.spraysTodayZone1), value(CH.spraysTodayZone2)];
  const secondsToday = [value(CH.sprayTimeTodayZone1), value(CH.sprayTimeTodayZone2)];
  const maxRates = [value(CH.maxSprayRateZone1), value(CH.maxSprayRateZone2)];
  const skipEnabled = value('gpf9') === 1;
  const skipActive = value(CH.skipSprayActive) === 1;
  const skipLeft = value(CH.skipTime);
  const skipHours = value('sp2');
  const stepSeconds = value('sp1');

  const now = useNow();
  const schedules = schedulesFromRegisters(live.registers);
  const next = nextScheduledSpray(schedules, weekTimeAt(now, safeOffset(live.timeZone, now)));
  const nextSteps = next ? (schedules[next.index]?.durationSteps ?? 0) : 0;

  const alarms = activeSprayerAlarms(live.alarmMask);
  const counted = countedSprayerAlarms(live.alarmMask, live.channels);
  const blockedManual = sprayBlockedBy(live.alarmMask, 'manual');
  const blockedTest = sprayBlockedBy(live.alarmMask, 'test');
  // The domain's device action table, which the server checks too: sprays and skip are channel
  // writes, schedules register writes.
  const operateRefusal = useDeviceActionRefusal('writeChannel');
  const configureRefusal = useDeviceActionRefusal('writeRegister');
  const canOperate = operateRefusal === null;
  const canConfigure = configureRefusal === null;
  const [editing, setEditing] = useState(false);

  const manual = useChannelWrite(device.thingName, CH.manualSprayControl);
  const test = useChannelWrite(device.thingName, CH.testSpray);
  const skip = useChannelWrite(device.thingName, CH.skipSprayActive);
  const failure = [manual, test, skip].find((write) => write.state.status === 'error')?.state;
  const busy = [manual, test, skip].some((write) => write.state.status === 'pending');
  const done = [manual, test, skip].some((write) => write.state.status === 'done');
  // Every spray and skip is confirmed first, naming the unit and what changes (issue 36 item 1).
  const { ask, dialog } = useConfirmedCommand();
  const sprayingNow = zoneOn[0] ? 'Spraying zone 1' : zoneOn[1] ? 'Spraying zone 2' : 'Idle';
  const startZone = (zone: 1 | 2) =>
    ask({
      action: `Spray zone ${zone}`,
      device: device.name,
      output: 'Manual spray',
      code: CH.manualSprayControl,
      now: sprayingNow,
      after: `Spraying zone ${zone}`,
      send: () => void manual.write(zone),
    });
  const offline = !live.isConnected;
  const spraying = zoneOn[0] || zoneOn[1];

  return (
    <article className="spray-card fl-card" data-testid="sprayer-card" aria-label={device.name}>
      <header className="spray-card__head">
        <div>
          <h2 className="spray-card__title">
            <Link to={`/dash/${encodeURIComponent(device.thingName)}`}>{device.name}</Link>
          </h2>
          <div className="spray-card__sub fl-muted">{device.thingName}</div>
        </div>
        <div className="spray-card__badges">
          {counted.length > 0 && (
            <Badge tone="danger">
              <span data-testid="alarm-count">
                {counted.length} {counted.length === 1 ? 'alarm' : 'alarms'}
              </span>
            </Badge>
          )}
          <Badge tone={offline ? 'neutral' : spraying ? 'info' : 'success'} dot>
            {offline ? 'Offline' : spraying ? 'Spraying' : 'Online'}
          </Badge>
        </div>
      </header>

      {blockedManual && (
        <InlineAlert tone={blockedManual.bit === 14 ? 'warning' : 'error'}>
          <strong>{blockedManual.name}:</strong>{' '}
          {blockedManual.bit === 14
            ? 'sprays disabled until wind drops.'
            : 'scheduled and manual sprays blocked, test sprays allowed.'}
        </InlineAlert>
      )}

      <div className="spray-card__body">
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

        <div className="spray-card__facts">
          <table className="spray-zones">
            <thead>
              <tr>
                <th scope="col">Zone</th>
                <th scope="col">Sprays today</th>
                <th scope="col">Time today</th>
                <th scope="col">Max rate</th>
              </tr>
            </thead>
            <tbody>
              {[0, 1].map((zone) => (
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
      </div>

      <section className="spray-card__controls" aria-label="Manual spray control" title={operateRefusal ?? undefined}>
        <div className="spray-card__buttons">
          {spraying ? (
            <Button
              size="sm"
              variant="danger"
              disabled={!canOperate || offline || busy}
              onClick={() =>
                ask({
                  action: 'Stop spraying',
                  device: device.name,
                  output: 'Manual spray',
                  code: CH.manualSprayControl,
                  now: sprayingNow,
                  after: 'Idle',
                  send: () => void manual.write(0),
                })
              }
            >
              Stop spraying
            </Button>
          ) : (
            <>
              <Button
                size="sm"
                variant="primary"
                disabled={!canOperate || offline || busy || blockedManual !== null}
                busy={manual.state.status === 'pending' && manual.state.value === 1}
                onClick={() => startZone(1)}
              >
                Spray zone 1
              </Button>
              <Button
                size="sm"
                disabled={!canOperate || offline || busy || blockedManual !== null}
                busy={manual.state.status === 'pending' && manual.state.value === 2}
                onClick={() => startZone(2)}
              >
                Spray zone 2
              </Button>
              <Button
                size="sm"
                variant="ghost"
                disabled={!canOperate || offline || busy || blockedTest !== null}
                busy={test.state.status === 'pending'}
                onClick={() =>
                  ask({
                    action: 'Test spray',
                    device: device.name,
                    output: 'Test spray',
                    code: CH.testSpray,
                    now: sprayingNow,
                    after: 'Test spraying',
                    send: () => void test.write(1),
                  })
                }
              >
                Test spray
              </Button>
            </>
          )}
          {skipActive ? (
            <Button
              size="sm"
              variant="ghost"
              disabled={!canOperate || offline || busy}
              onClick={() =>
                ask({
                  action: 'Resume sprays',
                  device: device.name,
                  output: 'Skip-spray',
                  code: CH.skipSprayActive,
                  now: 'Skipping sprays',
                  after: 'Scheduled sprays run',
                  send: () => void skip.write(0),
                })
              }
            >
              Resume sprays
            </Button>
          ) : (
            <Button
              size="sm"
              variant="ghost"
              disabled={!canOperate || offline || busy || !skipEnabled}
              title={skipEnabled ? undefined : 'Skip-spray is disabled on this unit (GPF-9).'}
              onClick={() =>
                ask({
                  action: 'Skip sprays',
                  device: device.name,
                  output: 'Skip-spray',
                  code: CH.skipSprayActive,
                  now: 'Scheduled sprays run',
                  after: skipHours === undefined ? 'Skipping sprays' : `Skipping sprays for ${skipHours} h`,
                  send: () => void skip.write(1),
                })
              }
            >
              Skip sprays{skipHours === undefined ? '' : ` for ${skipHours} h`}
            </Button>
          )}
          <Button
            size="sm"
            variant="secondary"
            className="spray-card__edit"
            title={configureRefusal ?? undefined}
            onClick={() => setEditing(true)}
          >
            {canConfigure ? 'Edit schedules' : 'Schedules'}
          </Button>
        </div>
        <OperateStatus progress={busy ? 'sending' : done ? 'done' : null} />
        {failure?.status === 'error' && (
          <InlineAlert tone="error">
            <span className="spray-card__failure">
              {failure.message}
              <button
                type="button"
                className="spray-link"
                onClick={() => [manual, test, skip].forEach((w) => w.clear())}
              >
                Dismiss
              </button>
            </span>
          </InlineAlert>
        )}
      </section>

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

      {dialog}
      {editing && (
        <ScheduleEditorDialog
          device={device}
          registers={live.registers}
          stepSeconds={stepSeconds}
          canEdit={canConfigure && !offline}
          offline={offline}
          onClose={() => setEditing(false)}
        />
      )}
    </article>
  );
}

/** The zone's offset from UTC now; a zone the browser does not know is read as UTC. */
function safeOffset(timeZone: string, now: number): number {
  try {
    return utcOffsetMinutes(timeZone, now);
  } catch {
    return 0;
  }
}
