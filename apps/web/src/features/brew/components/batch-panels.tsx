import { DEMO_REPORTS_MESSAGE } from '@fieldlink/domain/demo';
import { useState, type FormEvent, type ReactNode } from 'react';
import type { Batch, BrewReport, Tank } from '@fieldlink/api/brew';
import {
  AVERAGED_RATINGS,
  RATING_SCALE,
  TASTING_RATINGS,
  formatGravity,
  gravityProblem,
  readingTimeProblem,
  tastingAverages,
  tastingScore,
  type TastingRating,
} from '@fieldlink/domain/brew';
import { reportStateLabel } from '@fieldlink/domain/reports';
import { dateTimeInputValue, formatTastingDate, instantOfDateTimeInput } from '@fieldlink/domain/date-format';
import { Badge, type BadgeTone } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { TrashIcon } from '../../../components/ui/icons';
import { useBrewCall } from '../api/batch-calls';
import { useBrewBatches } from '../api/get-brew-batches';
import { downloadReport, useGenerateReport, useReportState } from '../api/batch-report';
import { useCan } from '../../../lib/session/use-can';
import { usePageClock } from '../../../lib/page-time-zone';
import { takeBackOffers } from '../model/take-back';
import { TakeBackEnd } from './take-back-end';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';

function Panel({ title, aside, children }: { title: string; aside?: ReactNode; children: ReactNode }) {
  return (
    <section className="fl-card brew-panel" aria-label={title}>
      <header className="brew-panel__head">
        <h2>{title}</h2>
        {aside}
      </header>
      {children}
    </section>
  );
}

/** Brewing dates (`MMM DD, YYYY LT`) in the page's clock: the user's zone and hour cycle. */
function useWhen(): (t: number) => string {
  const clock = usePageClock();
  return (t: number) => formatTastingDate(t, clock);
}

/**
 * Deleting a reading, a tasting note or an annotation asks first (docs/decisions.md, issue 36 item
 * 5), as deleting a report or a schedule does: the question names what goes.
 */
function DeleteItemDialog({
  what,
  busy,
  onConfirm,
  onClose,
}: {
  what: string;
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <ConfirmDialog
      title={`Delete ${what}?`}
      confirmLabel="Delete"
      tone="danger"
      busy={busy}
      onConfirm={onConfirm}
      onClose={onClose}
    >
      <p>It is removed from the batch and its chart. This cannot be undone.</p>
    </ConfirmDialog>
  );
}

/** An item the person chose to delete, waiting for their yes: its id and how the question names it. */
type Deleting = { id: string; what: string } | null;

/**
 * Hydrometer or refractometer readings; EDIT_BREW_INFO adds and deletes them. A reading is taken now
 * unless the brewer gives the time it was taken; a value or time that cannot be saved says why.
 */
export function GravityPanel({ batch, canEdit }: { batch: Batch; canEdit: boolean }) {
  const when = useWhen();
  const [text, setText] = useState('');
  // null: "now" (the field shows the current minute until the brewer changes it).
  const [time, setTime] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Deleting>(null);
  const put = useBrewCall('putGravity', () => {
    setText('');
    setTime(null);
  });
  const remove = useBrewCall('deleteGravity', () => setDeleting(null));
  const { timeZone } = usePageClock();
  const now = Date.now();
  // The field reads and writes the page's zone, the one every other time on the page is shown in.
  const shownTime = time ?? dateTimeInputValue(now, timeZone);
  const takenAt = time === null ? null : (instantOfDateTimeInput(time, timeZone) ?? Number.NaN);
  const valueProblem = gravityProblem(text);
  const timeProblem =
    takenAt === null
      ? null
      : Number.isNaN(takenAt)
        ? 'Give the date and time the reading was taken.'
        : readingTimeProblem(takenAt, now, batch.date.start);
  const problem = valueProblem ?? timeProblem;
  const valid = text.trim() !== '' && problem === null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!valid) return;
    put.mutate({ batchId: batch.id, value: Number(text), ...(takenAt === null ? {} : { timestamp: takenAt }) });
  };
  return (
    <Panel title="Gravity readings">
      {batch.gravities.length === 0 ? (
        <p className="fl-muted">No readings yet.</p>
      ) : (
        <ul className="brew-list" data-testid="gravity-readings">
          {[...batch.gravities].reverse().map((reading) => (
            <li key={reading.id}>
              <strong>{formatGravity(reading.value)}</strong>
              <span className="fl-muted">
                {when(reading.timestamp)}
                {reading.createdBy ? ` · ${reading.createdBy}` : ''}
              </span>
              {canEdit && (
                <button
                  type="button"
                  className="brew-list__delete"
                  aria-label={`Delete reading ${formatGravity(reading.value)}`}
                  onClick={() =>
                    setDeleting({
                      id: reading.id,
                      what: `the reading ${formatGravity(reading.value)} of ${when(reading.timestamp)}`,
                    })
                  }
                >
                  <TrashIcon size={15} />
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {canEdit && (
        <form className="brew-inline-form brew-inline-form--reading" onSubmit={submit} noValidate>
          <input
            className="fl-input"
            inputMode="decimal"
            placeholder="1.012"
            aria-label="Gravity reading"
            aria-invalid={valueProblem !== null}
            aria-describedby={problem ? 'gravity-reading-problem' : undefined}
            value={text}
            onChange={(event) => setText(event.target.value)}
          />
          <input
            className="fl-input brew-inline-form__time"
            type="datetime-local"
            aria-label="Time taken"
            aria-invalid={timeProblem !== null}
            value={shownTime}
            onChange={(event) => setTime(event.target.value)}
          />
          <Button type="submit" variant="primary" size="sm" disabled={!valid} busy={put.isPending}>
            Add reading
          </Button>
          {problem && (
            <p id="gravity-reading-problem" className="brew-form__problem" role="alert">
              {problem}
            </p>
          )}
        </form>
      )}
      {deleting && (
        <DeleteItemDialog
          what={deleting.what}
          busy={remove.isPending}
          onConfirm={() => remove.mutate({ batchId: batch.id, id: deleting.id })}
          onClose={() => setDeleting(null)}
        />
      )}
    </Panel>
  );
}

const RATING_LABELS: Record<TastingRating, string> = {
  aroma: 'Aroma',
  flavor: 'Flavor',
  mouthfeel: 'Mouthfeel',
  appearance: 'Appearance',
  overall: 'Overall',
  carbonation: 'Carbonation',
};
const RATING_CHOICES = Array.from(
  { length: (RATING_SCALE.max - RATING_SCALE.min) / RATING_SCALE.step + 1 },
  (_, index) => RATING_SCALE.min + index * RATING_SCALE.step,
);
const DEFAULT_RATINGS = Object.fromEntries(TASTING_RATINGS.map((rating) => [rating, 3])) as Record<
  TastingRating,
  number
>;

/** Tasting notes with their ratings and averages; each shows on the chart as a blue line. */
export function TastingPanel({ batch, canEdit }: { batch: Batch; canEdit: boolean }) {
  const when = useWhen();
  const [adding, setAdding] = useState(false);
  const [ratings, setRatings] = useState(DEFAULT_RATINGS);
  const [notes, setNotes] = useState('');
  const put = useBrewCall('putSensory', () => {
    setAdding(false);
    setRatings(DEFAULT_RATINGS);
    setNotes('');
  });
  const [deleting, setDeleting] = useState<Deleting>(null);
  const remove = useBrewCall('deleteSensory', () => setDeleting(null));
  const averages = tastingAverages(batch.sensories);
  return (
    <Panel
      title="Tasting notes"
      aside={
        canEdit &&
        !adding && (
          <Button size="sm" onClick={() => setAdding(true)}>
            Add tasting note
          </Button>
        )
      }
    >
      {averages && (
        <dl className="brew-averages" data-testid="tasting-averages">
          {AVERAGED_RATINGS.map((rating) => (
            <div key={rating}>
              <dt>{RATING_LABELS[rating]}</dt>
              <dd>{averages[rating].toFixed(1)}</dd>
            </div>
          ))}
          <div className="brew-averages__score">
            <dt>Average</dt>
            <dd>{averages.score.toFixed(1)}</dd>
          </div>
        </dl>
      )}
      {adding && (
        <form
          className="brew-tasting-form"
          onSubmit={(event) => {
            event.preventDefault();
            put.mutate({ batchId: batch.id, ...ratings, notes });
          }}
        >
          <div className="brew-tasting-form__ratings">
            {TASTING_RATINGS.map((rating) => (
              <label key={rating} className="fl-field">
                <span className="fl-field__label">{RATING_LABELS[rating]}</span>
                <select
                  className="fl-select"
                  aria-label={RATING_LABELS[rating]}
                  value={ratings[rating]}
                  onChange={(event) => setRatings({ ...ratings, [rating]: Number(event.target.value) })}
                >
                  {RATING_CHOICES.map((choice) => (
                    <option key={choice} value={choice}>
                      {choice.toFixed(1)}
                    </option>
                  ))}
                </select>
              </label>
            ))}
          </div>
          <textarea
            className="fl-input brew-textarea"
            placeholder="What do you taste and smell?"
            aria-label="Tasting notes"
            value={notes}
            maxLength={2000}
            onChange={(event) => setNotes(event.target.value)}
          />
          <div className="brew-form__actions">
            <Button size="sm" onClick={() => setAdding(false)}>
              Cancel
            </Button>
            <Button size="sm" variant="primary" type="submit" busy={put.isPending}>
              Save tasting note
            </Button>
          </div>
        </form>
      )}
      {batch.sensories.length === 0 && !adding ? (
        <p className="fl-muted">No tasting notes yet.</p>
      ) : (
        <ul className="brew-list brew-list--notes" data-testid="tasting-notes">
          {[...batch.sensories].reverse().map((note) => (
            <li key={note.id}>
              <div>
                <strong>{tastingScore(note).toFixed(1)} / 5</strong>
                <span className="fl-muted"> · {when(note.timestamp)}</span>
                <p className="brew-note__ratings">
                  {TASTING_RATINGS.map((rating) => `${RATING_LABELS[rating]} ${note[rating]}`).join(' · ')}
                </p>
                {note.notes && <p>{note.notes}</p>}
              </div>
              {canEdit && (
                <button
                  type="button"
                  className="brew-list__delete"
                  aria-label={`Delete tasting note of ${when(note.timestamp)}`}
                  onClick={() => setDeleting({ id: note.id, what: `the tasting note of ${when(note.timestamp)}` })}
                >
                  <TrashIcon size={15} />
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {deleting && (
        <DeleteItemDialog
          what={deleting.what}
          busy={remove.isPending}
          onConfirm={() => remove.mutate({ batchId: batch.id, id: deleting.id })}
          onClose={() => setDeleting(null)}
        />
      )}
    </Panel>
  );
}

/** Notes on the chart: grey lines across it or on one channel; tasting notes' blue ones follow their notes. */
export function AnnotationPanel({ batch, canEdit }: { batch: Batch; canEdit: boolean }) {
  const when = useWhen();
  const [text, setText] = useState('');
  const put = useBrewCall('putAnnotation', () => setText(''));
  const [deleting, setDeleting] = useState<Deleting>(null);
  const remove = useBrewCall('deleteAnnotation', () => setDeleting(null));
  return (
    <Panel title="Annotations">
      {batch.annotations.length === 0 ? (
        <p className="fl-muted">Nothing marked on the chart yet.</p>
      ) : (
        <ul className="brew-list">
          {[...batch.annotations].reverse().map((annotation) => (
            <li key={annotation.id}>
              <i className="brew-swatch" style={{ background: annotation.color }} />
              <span>
                {annotation.text}
                <span className="fl-muted"> · {when(annotation.timestamp)}</span>
              </span>
              {canEdit && annotation.sensoryId === null && (
                <button
                  type="button"
                  className="brew-list__delete"
                  aria-label={`Delete annotation ${annotation.text}`}
                  onClick={() => setDeleting({ id: annotation.id, what: `the annotation “${annotation.text}”` })}
                >
                  <TrashIcon size={15} />
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {canEdit && (
        <form
          className="brew-inline-form"
          onSubmit={(event) => {
            event.preventDefault();
            if (text.trim()) put.mutate({ batchId: batch.id, text: text.trim() });
          }}
        >
          <input
            className="fl-input"
            placeholder="Dry hopped, yeast harvested…"
            aria-label="Annotation"
            value={text}
            maxLength={500}
            onChange={(event) => setText(event.target.value)}
          />
          <Button type="submit" size="sm" variant="primary" disabled={!text.trim()} busy={put.isPending}>
            Annotate
          </Button>
        </form>
      )}
      {deleting && (
        <DeleteItemDialog
          what={deleting.what}
          busy={remove.isPending}
          onConfirm={() => remove.mutate({ batchId: batch.id, id: deleting.id })}
          onClose={() => setDeleting(null)}
        />
      )}
    </Panel>
  );
}

const REPORT_TONES: Record<BrewReport['state'], BadgeTone> = {
  GENERATING: 'info',
  READY: 'success',
  AWAITING_USER: 'warning',
  ERROR: 'danger',
  DELETING: 'neutral',
};

function ReportRow({ report }: { report: BrewReport }) {
  const when = useWhen();
  const state = useReportState(report).data ?? report;
  return (
    <li data-testid="brew-report">
      <span>
        {when(state.createdAt)}
        {state.state === 'AWAITING_USER' && state.error && <span className="fl-muted"> · {state.error}</span>}
      </span>
      <Badge tone={REPORT_TONES[state.state]}>{reportStateLabel(state.state, state.error)}</Badge>
      {state.state === 'READY' && (
        <Button size="sm" onClick={() => void downloadReport(state.id)}>
          Download
        </Button>
      )}
    </li>
  );
}

/** The batch's reports, newest first, their states polled while generating, and a download. */
export function ReportPanel({ batch }: { batch: Batch }) {
  const generate = useGenerateReport();
  // A demo batch lives in the browser: no report can be made of it, so none is offered.
  return (
    <Panel
      title="Batch reports"
      aside={
        !batch.isDemo && (
          <Button size="sm" busy={generate.isPending} onClick={() => generate.mutate({ batchId: batch.id })}>
            Generate report
          </Button>
        )
      }
    >
      {batch.isDemo ? (
        <p className="fl-muted" data-testid="demo-reports-note">
          {DEMO_REPORTS_MESSAGE}
        </p>
      ) : batch.reports.length === 0 ? (
        <p className="fl-muted">A report (PDF) is made when the batch ends, or now with Generate report.</p>
      ) : (
        <ul className="brew-list brew-list--reports">
          {batch.reports.map((report) => (
            <ReportRow key={report.id} report={report} />
          ))}
        </ul>
      )}
    </Panel>
  );
}

/**
 * The group's ended batches, newest first, each with its latest report (§4: ending prepends one), and
 * for a brewer who may end batches (END_BREW) a way to take back the end of a tank's newest batch
 * while that tank is idle.
 */
export function FinishedBatches({ groupId, tanks }: { groupId: string; tanks: readonly Tank[] }) {
  const when = useWhen();
  const batches = useBrewBatches(groupId);
  const canEnd = useCan('endBrew');
  const all = batches.data?.batches ?? [];
  const ended = all.filter((batch) => batch.date.end !== null);
  const offers = canEnd ? takeBackOffers(all, tanks) : new Set<string>();
  if (ended.length === 0) return null;
  return (
    <Panel title="Finished batches">
      <ul className="brew-list brew-list--finished" data-testid="finished-batches">
        {ended.map((batch) => (
          <li key={batch.id}>
            <div>
              <strong>{batch.props.beerName}</strong>
              <span className="fl-muted">
                {' '}
                · Tank {batch.tankNumber} · {when(batch.date.start)} – {when(batch.date.end!)}
                {batch.lastGravity !== null ? ` · final ${formatGravity(batch.lastGravity)}` : ''}
              </span>
            </div>
            {batch.latestReport && (
              <ul className="brew-list brew-list--reports">
                <ReportRow report={batch.latestReport} />
              </ul>
            )}
            {offers.has(batch.id) && <TakeBackEnd batch={batch} />}
          </li>
        ))}
      </ul>
    </Panel>
  );
}
