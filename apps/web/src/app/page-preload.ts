// Which remembered page's first call is worth starting early. Its own module, importing nothing, so
// the start-up's first calls (`early-calls.ts`, sent before the rest of the code has loaded) and
// /loading's preloads (`loading-preload.ts`) decide by the same rule.

/** What a page opened after /loading needs before it can show anything: its code and its first call. */
export type PagePreload = { page: 'overview'; accountId: string; groupId: string } | { page: 'deviceTable' };

const OVERVIEW = /^\/inv\/cig\/overview\/([^/]+)\/([^/]+)\/?$/;

/** The page a remembered path opens, when it is one whose first call is worth starting early. */
export function pagePreloadOf(rememberedPath: string | null): PagePreload | null {
  const path = rememberedPath?.split(/[?#]/)[0] ?? '';
  const overview = OVERVIEW.exec(path);
  if (overview) {
    try {
      return {
        page: 'overview',
        accountId: decodeURIComponent(overview[1]!),
        groupId: decodeURIComponent(overview[2]!),
      };
    } catch {
      return null;
    }
  }
  return path === '/accounts/list' || path === '/accounts/list/' ? { page: 'deviceTable' } : null;
}
