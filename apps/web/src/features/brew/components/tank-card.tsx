import type { Tank } from '@fieldlink/api/brew';
import {
  BREW_CHANNEL_UNITS,
  batchAbv,
  fermentationDay,
  formatAbv,
  formatGravity,
  tankIcon,
  tankStateLabel,
} from '@fieldlink/domain/brew';
import { Badge } from '../../../components/ui/badge';
import { useStore } from '../../../lib/use-store';
import { realtimeStore } from '../../../lib/realtime/realtime-store';
import { liveTank } from '../model/live-tank';
import { TankIcon } from './tank-icon';

const one = (value: number | null, digits = 1) => (value === null ? '–' : value.toFixed(digits));

/** One tank on the brew summary, live: state, beer, day, temperature vs setpoint, gravity, ABV, pressure. */
export function TankCard({ tank, onOpen }: { tank: Tank; onOpen: () => void }) {
  const latest = useStore(realtimeStore, (state) => state.latest[tank.thingName]);
  const connected = useStore(
    realtimeStore,
    (state) => state.connection[tank.thingName]?.isConnected ?? tank.isConnected,
  );
  const live = liveTank(tank, latest);
  const batch = tank.batchInfo;
  const gravity = live.gravity.currentGravity;
  const og = batch?.props.originalGravity ?? null;
  return (
    <button type="button" className="tank-card fl-card" onClick={onOpen} data-testid={`tank-card-${tank.tankNumber}`}>
      <div className="tank-card__head">
        <TankIcon icon={tankIcon(tank.state)} />
        <div className="tank-card__title">
          <span className="tank-card__number">Tank {tank.tankNumber}</span>
          <span className="tank-card__name">{tank.name}</span>
        </div>
        <div className="tank-card__badges">
          <Badge tone={batch ? 'info' : 'neutral'}>{tankStateLabel(tank.state)}</Badge>
          {!connected && (
            <Badge tone="danger" dot>
              Offline
            </Badge>
          )}
          {tank.isVatMarked && <Badge tone="warning">Marked</Badge>}
        </div>
      </div>
      <div className="tank-card__beer">
        {batch ? (
          <>
            <strong>{batch.props.beerName}</strong>
            <span className="fl-muted">
              {batch.props.style ? `${batch.props.style} · ` : ''}Day{' '}
              {fermentationDay(batch.date.start, batch.transitions, Date.now())}
            </span>
          </>
        ) : (
          <span className="fl-muted">No batch</span>
        )}
      </div>
      <dl className="tank-card__figures">
        <div>
          <dt>Temperature</dt>
          <dd>
            {one(live.temperature)}
            <small>
              {' '}
              / {one(live.setpoint)} {BREW_CHANNEL_UNITS.temperature}
            </small>
          </dd>
        </div>
        <div>
          <dt>Gravity{live.gravity.hasGravityFreezed ? ' (frozen)' : ''}</dt>
          <dd data-testid="tank-gravity">{formatGravity(gravity)}</dd>
        </div>
        <div>
          <dt>ABV</dt>
          <dd>{formatAbv(batchAbv(og, batch?.gravities ?? [], gravity), 1)}</dd>
        </div>
        <div>
          <dt>Pressure</dt>
          <dd>
            {one(live.upperPressure)}
            <small> {BREW_CHANNEL_UNITS.upperPressure}</small>
          </dd>
        </div>
      </dl>
    </button>
  );
}
