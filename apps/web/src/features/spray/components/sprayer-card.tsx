import { useState } from 'react';
import { Link } from 'react-router';
import type { Device } from '@fieldlink/api/device';
import { Badge } from '../../../components/ui/badge';
import { InlineAlert } from '../../../components/ui/inline-alert';
import { useSprayerCard } from '../hooks/use-sprayer-card';
import { useSprayerControls } from '../hooks/use-sprayer-controls';
import { ScheduleEditorDialog } from './schedule-editor-dialog';
import { SprayerAlarms, SprayerButtons, SprayerFacts, SprayerTank } from './sprayer-card-parts';

/** One sprayer of the overview: tank, zones, today's sprays, controls, skip-spray, next spray, alarms. */
export function SprayerCard({ device }: { device: Device }) {
  const card = useSprayerCard(device);
  const controls = useSprayerControls(device.thingName, device.name, card.readings);
  const [editing, setEditing] = useState(false);
  const { counted, offline, spraying, blockedManual } = card;

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
        <SprayerTank readings={card.readings} />
        <SprayerFacts device={device} card={card} />
      </div>

      <SprayerButtons card={card} controls={controls} onEditSchedules={() => setEditing(true)} />
      <SprayerAlarms alarms={card.alarms} counted={counted} />

      {controls.dialog}
      {editing && (
        <ScheduleEditorDialog
          device={device}
          registers={card.live.registers}
          stepSeconds={card.readings.stepSeconds}
          canEdit={controls.canConfigure && !offline}
          offline={offline}
          onClose={() => setEditing(false)}
        />
      )}
    </article>
  );
}
