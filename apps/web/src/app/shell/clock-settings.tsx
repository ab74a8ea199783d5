import { useId, useMemo } from 'react';
import { ClockIcon } from '../../components/ui/icons';
import { formatInstant, type ClockPreferences, type DateOrder, type HourCycle } from '@fieldlink/domain/date-format';
import { putUser } from '../../features/accounts/api/put-user';
import { timeZones } from '../../features/devices/model/time-zones';
import { serverMessageOr } from '../../lib/api-client';
import { appStore, setClockPreferences, showToast } from '../../lib/app-store/app-store';
import { useNow } from '../../lib/clock';
import { browserClock, readerClock } from '../../lib/page-time-zone';
import { useStore } from '../../lib/use-store';

/** The sample instant of each choice's label: 30 Nov, 2:05 pm, so day and month never read alike. */
const SAMPLE = Date.UTC(2026, 10, 30, 14, 5);
const sample = (hourCycle: HourCycle, dateOrder: DateOrder, style: 'time' | 'date') =>
  formatInstant(SAMPLE, { timeZone: 'UTC', hourCycle, dateOrder }, style);

/**
 * The user's clock (issue 36 item 2), in the account menu beside the theme: time zone, 12 or 24
 * hours, day or month first; each "this browser's" until chosen. A choice shows at once on every
 * screen and is saved to the user, so it follows them to reports, mails and other browsers; a
 * failed save puts the previous choice back and says why.
 */
export function ClockSettings({ email }: { email: string | null }) {
  const zoneId = useId();
  const cycleId = useId();
  const orderId = useId();
  const preferences = useStore(appStore, (s) => s.session.clock);
  const now = useNow();
  const browser = browserClock();
  const zones = useMemo(() => timeZones(preferences.timeZone ?? browser.timeZone), [preferences.timeZone, browser]);
  const clock = readerClock(preferences);

  const choose = (change: Partial<ClockPreferences>) => {
    const previous = preferences;
    setClockPreferences({ ...preferences, ...change });
    if (!email) return;
    putUser({ email, props: change }).catch((error: unknown) => {
      // Only this choice goes back, and only where nothing was chosen since: the user's other
      // choices, saved by their own calls, stay as they are on screen and on the server.
      const current = appStore.getState().session.clock;
      const fields = (Object.keys(change) as (keyof ClockPreferences)[]).filter((key) => current[key] === change[key]);
      setClockPreferences({ ...current, ...Object.fromEntries(fields.map((key) => [key, previous[key]])) });
      showToast('error', serverMessageOr(error, 'Your clock could not be saved. Please try again.'));
    });
  };

  return (
    <fieldset className="user-menu__clock">
      <legend className="user-menu__label">
        <ClockIcon size={16} /> Clock
      </legend>
      <label className="user-menu__field" htmlFor={zoneId}>
        <span>Time zone</span>
        <select
          id={zoneId}
          className="fl-select"
          value={preferences.timeZone ?? ''}
          onChange={(event) => choose({ timeZone: event.target.value || null })}
        >
          <option value="">This browser’s ({browser.timeZone})</option>
          {zones.map((zone) => (
            <option key={zone} value={zone}>
              {zone}
            </option>
          ))}
        </select>
      </label>
      <label className="user-menu__field" htmlFor={cycleId}>
        <span>Hours</span>
        <select
          id={cycleId}
          className="fl-select"
          value={preferences.hourCycle ?? ''}
          onChange={(event) => choose({ hourCycle: (event.target.value || null) as HourCycle | null })}
        >
          <option value="">This browser’s ({sample(browser.hourCycle, browser.dateOrder, 'time')})</option>
          <option value="24">24 hours ({sample('24', browser.dateOrder, 'time')})</option>
          <option value="12">12 hours ({sample('12', browser.dateOrder, 'time')})</option>
        </select>
      </label>
      <label className="user-menu__field" htmlFor={orderId}>
        <span>Dates</span>
        <select
          id={orderId}
          className="fl-select"
          value={preferences.dateOrder ?? ''}
          onChange={(event) => choose({ dateOrder: (event.target.value || null) as DateOrder | null })}
        >
          <option value="">This browser’s ({sample(browser.hourCycle, browser.dateOrder, 'date')})</option>
          <option value="dmy">Day first ({sample(browser.hourCycle, 'dmy', 'date')})</option>
          <option value="mdy">Month first ({sample(browser.hourCycle, 'mdy', 'date')})</option>
        </select>
      </label>
      <p className="user-menu__clock-now" data-testid="clock-now">
        Now: {formatInstant(now, clock, 'date-time', { nameZone: true })}
      </p>
    </fieldset>
  );
}
