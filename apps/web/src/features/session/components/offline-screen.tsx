import { formatChannelValue } from '@fieldlink/domain/channel-presentation';
import { formatDateTime, formatInstant } from '@fieldlink/domain/date-format';
import { isOfflineValueStale, OFFLINE_RETRY_INTERVAL_MS } from '@fieldlink/domain/offline-values';
import { Badge } from '../../../components/ui/badge';
import { BrandMark } from '../../../components/ui/brand-mark';
import { Button } from '../../../components/ui/button';
import { CloudOffIcon } from '../../../components/ui/icons';
import { formatAge } from '../../../lib/format-time';
import type { LastValuesRecord } from '../../../lib/offline/last-values-storage';
import { readerClock } from '../../../lib/page-time-zone';

export interface OfflineScreenProps {
  productName: string;
  /** Since when the server could not be reached, unix ms. */
  since: number;
  /** The signed-in user's last values kept in this browser; null when none are. */
  kept: LastValuesRecord | null;
  now: number;
  /** A try is under way. */
  retrying: boolean;
  onRetry: () => void;
}

const NO_CLOCK_CHOICES = { timeZone: null, hourCycle: null, dateOrder: null };

/**
 * The console started (or went on) without reaching the server: says so, since when and that it tries
 * again by itself, and shows the last values the user saw here with their age: not live, and marked
 * stale when older than a quarter of an hour.
 */
export function OfflineScreen({ productName, since, kept, now, retrying, onRetry }: OfflineScreenProps) {
  const clock = readerClock(kept?.clock ?? NO_CLOCK_CHOICES);
  const values = kept?.values ?? [];
  return (
    <main className="offline-screen">
      <header className="offline-screen__brand">
        <BrandMark size={28} />
        <span>{productName}</span>
      </header>
      <section className="offline-screen__notice" role="alert" aria-labelledby="offline-title">
        <span className="offline-screen__icon" aria-hidden="true">
          <CloudOffIcon size={26} />
        </span>
        <div className="offline-screen__words">
          <h1 id="offline-title">You are offline</h1>
          <p data-testid="offline-since">
            No connection to the server since {formatInstant(since, clock, 'date-time-minutes')} (
            {formatAge(since, now)}).
          </p>
          <p className="offline-screen__retry-text" aria-live="polite">
            {retrying
              ? 'Trying again…'
              : `Trying again every ${OFFLINE_RETRY_INTERVAL_MS / 1000} s; the console carries on by itself when the connection is back.`}
          </p>
        </div>
        <Button variant="primary" busy={retrying} onClick={onRetry}>
          Retry now
        </Button>
      </section>

      <section className="offline-screen__values" aria-labelledby="offline-values-title">
        <div className="offline-screen__values-head">
          <h2 id="offline-values-title">Last values you saw</h2>
          {kept && values.length > 0 && (
            <span className="offline-screen__saved">
              Saved on this browser {formatInstant(kept.savedAt, clock, 'date-time-minutes')}. Not live.
            </span>
          )}
        </div>
        {values.length === 0 ? (
          <p className="offline-screen__empty">
            No values were kept on this browser yet. They appear here once you have seen devices online.
          </p>
        ) : (
          <div className="offline-screen__table-wrap">
            <table className="offline-screen__table">
              <thead>
                <tr>
                  <th scope="col">Device</th>
                  <th scope="col">Channel</th>
                  <th scope="col" className="is-number">
                    Value
                  </th>
                  <th scope="col">Age</th>
                </tr>
              </thead>
              <tbody>
                {values.map((value) => {
                  const stale = isOfflineValueStale(value.t, now);
                  return (
                    <tr key={`${value.thingName}/${value.code}`} className={stale ? 'is-stale' : undefined}>
                      <th scope="row">{value.deviceName}</th>
                      <td>{value.channelName}</td>
                      <td className="is-number">
                        {formatChannelValue(
                          { code: value.code, name: value.channelName, units: value.units },
                          value.value,
                        )}
                      </td>
                      <td title={formatDateTime(value.t, clock)}>
                        {formatAge(value.t, now)}
                        {stale && (
                          <>
                            {' '}
                            <Badge tone="warning">Stale</Badge>
                          </>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </main>
  );
}
