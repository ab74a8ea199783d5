import { useEffect, useId, useState } from 'react';
import { AlarmIcon } from '../../components/ui/icons';
import { Spinner } from '../../components/ui/spinner';
import { serverMessageOr } from '../../lib/api-client';
import { useClientConfig } from '../../lib/api/get-client-config';
import { showToast } from '../../lib/app-store/app-store';
import {
  browserPushState,
  postPushTest,
  turnBrowserPushOff,
  turnBrowserPushOn,
  type BrowserPushState,
} from '../../lib/browser-push';

/** What the switch's hint says in each state: why it cannot be turned on, or what being on means. */
const HINTS: Record<BrowserPushState, string> = {
  unsupported:
    'This browser cannot show notifications from the console. On an iPhone or iPad, add the console to the Home Screen first and open it from there.',
  blocked:
    'Notifications are blocked for this site in the browser’s settings. Allow them there (the lock or site icon beside the address), then turn this on.',
  off: 'Turn on to see your devices’ alarms as notifications on this browser, even when the console is closed.',
  on: 'Your devices’ alarms show as notifications on this browser, even when the console is closed.',
};

/**
 * "Notifications on this browser" (issue 39 item 2), in the account menu beside the clock: a switch
 * that asks the browser's permission and subscribes this browser for the signed-in user, with a hint
 * that says why it cannot be turned on where the browser blocks or lacks notifications, and a test.
 * Not shown where the server offers no Web Push (the demo).
 */
export function PushSettings() {
  const hintId = useId();
  const { pushPublicKey } = useClientConfig();
  const [state, setState] = useState<BrowserPushState | null>(null);
  const [pending, setPending] = useState(false);

  useEffect(() => {
    let live = true;
    const check = () => void browserPushState().then((found) => live && setState(found));
    check();
    // On a first visit the service worker registers after the page starts: ask again once it is active.
    if ('serviceWorker' in navigator) void navigator.serviceWorker.ready.then(check);
    return () => {
      live = false;
    };
  }, []);

  if (!pushPublicKey || state === null) return null;
  const on = state === 'on';

  const toggle = async () => {
    setPending(true);
    try {
      if (on) {
        await turnBrowserPushOff();
        setState('off');
      } else {
        setState(await turnBrowserPushOn(pushPublicKey));
      }
    } catch (error) {
      showToast(
        'error',
        serverMessageOr(error, 'Notifications could not be changed on this browser. Please try again.'),
      );
      setState(await browserPushState());
    } finally {
      setPending(false);
    }
  };

  const test = async () => {
    setPending(true);
    try {
      const answer = await postPushTest();
      if (answer.sent > 0)
        showToast(
          'success',
          `Test notification sent to ${answer.sent === 1 ? 'your browser' : `your ${answer.sent} browsers`}.`,
        );
      else showToast('warning', 'No browser of yours took the test notification. Turn notifications off and on again.');
    } catch (error) {
      showToast('error', serverMessageOr(error, 'The test notification could not be sent.'));
    } finally {
      setPending(false);
    }
  };

  return (
    <fieldset className="user-menu__clock user-menu__push">
      <legend className="user-menu__label">
        <AlarmIcon size={16} /> Notifications
      </legend>
      <div className="user-menu__field">
        <span>Notifications on this browser</span>
        <button
          type="button"
          role="switch"
          aria-checked={on}
          aria-label="Notifications on this browser"
          aria-describedby={hintId}
          className={`fl-switch user-menu__switch${on ? ' is-on' : ''}`}
          disabled={pending || state === 'unsupported' || state === 'blocked'}
          onClick={() => void toggle()}
        >
          <span className="fl-switch__knob" />
        </button>
      </div>
      <p className="user-menu__clock-now" id={hintId} data-testid="push-hint">
        {HINTS[state]}
      </p>
      {on && (
        <button type="button" className="fl-button fl-button--secondary" disabled={pending} onClick={() => void test()}>
          {pending ? <Spinner size={14} /> : null} Send a test notification
        </button>
      )}
    </fieldset>
  );
}
