import {
  ACCOUNT_COLUMNS_QUERY,
  ACCOUNT_PATH,
  DEVICE_TABLE_BINARY_QUERY,
  DEVICE_TABLE_PATH,
  SELF_PATH,
} from '@fieldlink/api/first-calls';
import { sendEarly } from '../lib/early-calls';
import { DEMO_TOKEN, readToken } from '../lib/stored-token';
import { pagePreloadOf } from './page-preload';
import { decideStartup } from './start-up-routing';

/**
 * The calls a start-up that goes to /loading waits for, sent by the entry before the rest of the
 * console's code is fetched and run (issue 41 item 5): the user and the account tree /loading reads,
 * and for a remembered device list its table, in `preloadForLoading`'s order. Their queries take the
 * responses in flight (`takeEarlyResponse` in `apiFetch`). Decided by the start-up's own rules
 * (`decideStartup`, `pagePreloadOf`); nothing is sent without a stored token, nor in a demo, whose
 * calls the browser answers (`DEMO_TOKEN`: no call of a demo reaches the network).
 */
export function sendFirstCalls(location: Location = window.location): void {
  const token = readToken();
  if (token === null || token === DEMO_TOKEN) return;
  const decision = decideStartup(location, true);
  if (decision.redirectTo !== '/loading') return;
  sendEarly(SELF_PATH, undefined, token);
  // `getDeviceTable` asks without an ETag of its own with `no-cache`: the browser revalidates its copy.
  if (pagePreloadOf(decision.rememberedPath)?.page === 'deviceTable')
    sendEarly(DEVICE_TABLE_PATH, { format: DEVICE_TABLE_BINARY_QUERY }, token, 'no-cache');
  sendEarly(ACCOUNT_PATH, { format: ACCOUNT_COLUMNS_QUERY }, token);
}
