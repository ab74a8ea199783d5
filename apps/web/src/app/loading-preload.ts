import { accountQuery } from '../lib/api/get-account';
import { selfQuery } from '../lib/api/get-self';
import { queryClient } from '../lib/query-client';
import { deviceTableQuery } from '../features/device-table/api/get-device-table';
import { overviewQuery } from '../features/inventory/api/get-overview';
import { pagePreloadOf } from './page-preload';
import { preloadPage } from './router';

/**
 * Starts, at the first instruction of a start-up that goes to /loading, what would otherwise wait in
 * line (specification §2): the user and the account tree that /loading reads (it then joins these
 * calls), then /loading's own code (`preloadFirstPage`; the first render waits for it), then the code
 * of the remembered page and of the shell around it, and for a remembered inventory overview or device
 * list that page's first call (the device list's before the tree, and then its first sorted order).
 * None of it changes where /loading goes: it decides as before, and the server checks every call as
 * before; a call the user may not make fails and is made again by its page. Answers `preloadFirstPage`'s
 * promise.
 */
export function preloadForLoading(rememberedPath: string | null, preloadFirstPage: () => Promise<void>): Promise<void> {
  void queryClient.prefetchQuery(selfQuery());
  const preload = pagePreloadOf(rememberedPath);
  // The device table is asked for before the account tree: the server answers it from its cache at
  // once and then builds the tree, so the table arrives and is decoded while the tree is being built.
  if (preload?.page === 'deviceTable') void queryClient.prefetchQuery(deviceTableQuery());
  void queryClient.prefetchQuery(accountQuery());
  // The calls before any code: a browser opens six connections to the server, and the first page's
  // dozen scripts asked for first held all six while the table call waited (1.4 s in one cold open at
  // load 17, issue 41 item 5). Three calls leave the code three connections at once.
  const firstPage = preloadFirstPage();
  // The remembered page's code and the shell's (a failed chunk is reported by the page that needs it,
  // ChunkLoadError, not here).
  const ignore = () => undefined;
  if (rememberedPath) void preloadPage(rememberedPath);
  else void import('./shell/app-shell').catch(ignore);
  if (preload?.page === 'overview') {
    void queryClient.prefetchQuery(overviewQuery(preload.groupId, preload.accountId));
  } else if (preload?.page === 'deviceTable') {
    // Its first sorted order is built while /loading waits for the account tree.
    void Promise.all([
      import('../features/device-table/model/prepare-table'),
      queryClient.fetchQuery(deviceTableQuery()),
    ])
      .then(([{ prepareStoredSort }, data]) => prepareStoredSort(data))
      .catch(ignore);
  }
  return firstPage;
}
