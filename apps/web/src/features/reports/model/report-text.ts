import type { BadgeTone } from '../../../components/ui/badge';
import { formatDate, type Clock } from '@fieldlink/domain/date-format';
import { REPORT_INTERVAL_LABELS, type ReportInterval, type ReportState } from '@fieldlink/domain/reports';

/** Badge colour of each report state. */
export const REPORT_STATE_TONES: Readonly<Record<ReportState, BadgeTone>> = {
  GENERATING: 'info',
  READY: 'success',
  AWAITING_USER: 'warning',
  ERROR: 'danger',
  DELETING: 'neutral',
};

/** `25/11/26 – 26/11/26, per hour`: a report's period and interval in a few words, in the reader's clock. */
export function periodText(start: number, end: number, interval: ReportInterval, clock: Clock): string {
  const day = (t: number) => formatDate(t, clock);
  const span = day(start) === day(end) ? day(start) : `${day(start)} – ${day(end)}`;
  return `${span}, per ${REPORT_INTERVAL_LABELS[interval].toLowerCase()}`;
}

/** A file size in B, kB or MB. */
export function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} kB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
