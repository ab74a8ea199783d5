import { useEffect, useRef, useState } from 'react';
import type { Tank } from '@fieldlink/api/brew';
import {
  BATCH_ENDED_MESSAGE,
  BREW_CHANNEL_UNITS,
  batchAbv,
  fermentationDay,
  formatAbv,
  formatGravity,
  hasBatchEnded,
  saturationRatio,
  tankIcon,
  tankStateLabel,
  type BatchAbv,
} from '@fieldlink/domain/brew';
import { formatTastingDate } from '@fieldlink/domain/date-format';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { ArrowLeftIcon } from '../../../components/ui/icons';
import { showToast } from '../../../lib/app-store/app-store';
import { usePageClock } from '../../../lib/page-time-zone';
import { useStore } from '../../../lib/use-store';
import { realtimeStore } from '../../../lib/realtime/realtime-store';
import { useCan } from '../../../lib/session/use-can';
import { useBrewCall } from '../api/batch-calls';
import { useBrewBatches } from '../api/get-brew-batches';
import { takeBackOffers } from '../model/take-back';
import { liveTank } from '../model/live-tank';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { BatchDialog } from './batch-dialogs';
import { AnnotationPanel, GravityPanel, ReportPanel, TastingPanel } from './batch-panels';
import { TankChart } from './tank-chart';
import { CalibrationPanel, SetpointControl } from './tank-controls';
import { TakeBackEnd } from './take-back-end';
import { TankIcon } from './tank-icon';

type Open = 'start' | 'edit' | 'end' | 'delete' | null;

/** The batch's ABV and where it comes from: a person should know a reading from an estimate. */
const abvText = (value: BatchAbv | null) =>
  value === null ? formatAbv(value) : `${formatAbv(value)} (${value.source})`;

const fixed = (value: number | null | undefined, digits: number, unit = '') =>
  value == null ? '–' : `${value.toFixed(digits)}${unit ? ` ${unit}` : ''}`;

/** One tank: its batch, live figures, chart, readings, tasting notes, annotations, reports and calibration. */
export function TankView({ groupId, tank, onBack }: { groupId: string; tank: Tank; onBack: () => void }) {
  const clock = usePageClock();
  const latest = useStore(realtimeStore, (state) => state.latest[tank.thingName]);
  const live = liveTank(tank, latest);
  const batch = tank.batchInfo;
  const canEdit = useCan('editBrewInfo');
  const canEnd = useCan('endBrew');
  const canDelete = useCan('deleteBrew');
  // An idle tank's newest batch, when its end may be taken back (the server's rule, END_BREW).
  const batches = useBrewBatches(groupId);
  const offers = !batch && canEnd ? takeBackOffers(batches.data?.batches ?? [], [tank]) : null;
  const lastEnded = offers ? batches.data?.batches.find((summary) => offers.has(summary.id)) : undefined;
  const [open, setOpen] = useState<Open>(null);
  const endingHere = useRef(false);
  const close = () => setOpen(null);
  const start = useBrewCall('start', close);
  const update = useBrewCall('update', close);
  const end = useBrewCall('end', () => {
    close();
    showToast('success', 'Batch ended. Its report is being generated.');
    onBack();
  });
  const remove = useBrewCall('remove', () => {
    close();
    onBack();
  });

  // §4: a message showing that this tank's batch ended warns and returns to the summary.
  const shown = useRef(tank);
  useEffect(() => {
    if (hasBatchEnded(shown.current, tank) && !endingHere.current) {
      showToast('warning', BATCH_ENDED_MESSAGE);
      onBack();
    }
    shown.current = tank;
  }, [tank, onBack]);

  const og = batch?.props.originalGravity ?? null;
  const gravity = live.gravity.currentGravity;
  const figures: [string, string][] = [
    ['Estimated gravity', `${formatGravity(gravity)}${live.gravity.hasGravityFreezed ? ' (frozen)' : ''}`],
    ['ABV', abvText(batchAbv(og, batch?.gravities ?? [], gravity))],
    ['Original gravity', formatGravity(og)],
    ['Temperature', fixed(live.temperature, 1, BREW_CHANNEL_UNITS.temperature)],
    ['Level', fixed(live.gravity.tankLevel, 0, BREW_CHANNEL_UNITS.tankLevel)],
    ['CO2 saturation', fixed(saturationRatio(live.gravity.saturatedCo2, live.gravity.tankLevel), 2, 'vol')],
    ['CO2 flow', fixed(live.co2Flow, 2, BREW_CHANNEL_UNITS.co2Flow)],
    ['Pressure', `${fixed(live.upperPressure, 2)} / ${fixed(live.lowerPressure, 2, BREW_CHANNEL_UNITS.upperPressure)}`],
    ['pH', fixed(live.ph, 2)],
  ];

  return (
    <div className="fl-page tank-view">
      <button type="button" className="tank-view__back" onClick={onBack}>
        <ArrowLeftIcon size={16} /> All tanks
      </button>
      <header className="tank-view__head">
        <TankIcon icon={tankIcon(tank.state)} size={56} />
        <div className="tank-view__title">
          <h1>
            Tank {tank.tankNumber} · {tank.name}
          </h1>
          <p className="fl-muted">
            {batch
              ? `${batch.props.beerName}${batch.props.style ? ` · ${batch.props.style}` : ''} · day ${fermentationDay(batch.date.start, batch.transitions, Date.now())}`
              : `No batch in this tank${lastEnded ? ` · ${lastEnded.props.beerName} ended ${formatTastingDate(lastEnded.date.end!, clock)}` : ''}`}
          </p>
        </div>
        <Badge tone={batch ? 'info' : 'neutral'}>{tankStateLabel(tank.state)}</Badge>
        <div className="tank-view__actions">
          {!batch && canEdit && (
            <Button variant="primary" onClick={() => setOpen('start')}>
              Start batch
            </Button>
          )}
          {lastEnded && <TakeBackEnd batch={lastEnded} />}
          {batch && canEdit && <Button onClick={() => setOpen('edit')}>Edit batch info</Button>}
          {batch && canEnd && (
            <Button variant="primary" onClick={() => setOpen('end')}>
              End batch
            </Button>
          )}
          {batch && canDelete && (
            <Button variant="danger" onClick={() => setOpen('delete')}>
              Delete batch
            </Button>
          )}
        </div>
      </header>

      <dl className="tank-view__figures">
        {figures.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd data-testid={`figure-${label}`}>{value}</dd>
          </div>
        ))}
        <div className="tank-view__setpoint">
          <SetpointControl tank={tank} />
        </div>
      </dl>

      {batch ? (
        <>
          <TankChart batch={batch} logs={tank.rawDeviceLogs} />
          <div className="tank-view__panels">
            <GravityPanel batch={batch} canEdit={canEdit} />
            <TastingPanel batch={batch} canEdit={canEdit} />
            <AnnotationPanel batch={batch} canEdit={canEdit} />
            <ReportPanel batch={batch} />
          </div>
        </>
      ) : (
        <p className="fl-card tank-view__empty">
          Start a batch to follow its fermentation: gravity estimated from the CO2 it gives off, readings, tasting notes
          and a report when it ends.
        </p>
      )}
      <CalibrationPanel groupId={groupId} tank={tank} />

      {open === 'start' && (
        <BatchDialog
          title={`Start a batch in tank ${tank.tankNumber}`}
          initial={null}
          busy={start.isPending}
          submitLabel="Start batch"
          onSubmit={(props) => start.mutate({ groupId, tankNumber: tank.tankNumber, props })}
          onClose={close}
        />
      )}
      {open === 'edit' && batch && (
        <BatchDialog
          title="Batch info"
          initial={batch.props}
          busy={update.isPending}
          submitLabel="Save"
          onSubmit={(props) => update.mutate({ batchId: batch.id, props })}
          onClose={close}
        />
      )}
      {open === 'end' && batch && (
        <ConfirmDialog
          title="End this batch?"
          confirmLabel="End batch"
          tone="default"
          busy={end.isPending}
          onConfirm={() => {
            endingHere.current = true;
            end.mutate({ batchId: batch.id });
          }}
          onClose={close}
        >
          {batch.props.beerName} ends now and tank {tank.tankNumber} goes idle. A batch report is generated; you find it
          under the batch’s reports.
        </ConfirmDialog>
      )}
      {open === 'delete' && batch && (
        <ConfirmDialog
          title="Delete this batch?"
          confirmLabel="Delete batch"
          tone="danger"
          busy={remove.isPending}
          onConfirm={() => {
            endingHere.current = true;
            remove.mutate({ batchId: batch.id });
          }}
          onClose={close}
        >
          {batch.props.beerName}, its gravity readings, tasting notes, annotations and reports are deleted for good.
        </ConfirmDialog>
      )}
    </div>
  );
}
