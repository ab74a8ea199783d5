import type { Rolldown } from 'vite';

type ModuleGraph = Pick<Rolldown.ModuleInfo, 'importers' | 'dynamicImporters' | 'isEntry'>;

/**
 * The pages a signed-in cold open goes through, in order (specification §2): /loading (its page is
 * in the session pages), then the shell around every signed-in page, then the device list. Each gets
 * one chunk for the code only it and pages after it use.
 */
const STEPS = [
  { chunk: 'loading', root: /src[\\/]features[\\/]session[\\/]components[\\/]session-pages\.tsx$/ },
  { chunk: 'shell', root: /src[\\/]app[\\/]shell[\\/]app-shell\.tsx$/ },
  {
    chunk: 'device-list',
    root: /src[\\/]app[\\/]device-table-route\.tsx$|src[\\/]features[\\/]device-table[\\/]model[\\/]prepare-table\.ts$/,
  },
] as const;

/**
 * The console's start (`boot()`): the entry sends the first calls and then imports it, so every page
 * loads after it.
 */
const BOOT = /src[\\/]app[\\/]boot\.tsx$/;

/** The pages before a sign-in: what they share with the steps goes in one chunk of its own. */
const SIGNED_OUT =
  /src[\\/](features[\\/](session[\\/]components[\\/](signin|signup|forgot-password|reset-password)-page|public-pages[\\/]components[\\/]public-pages)|app[\\/]second-factor-setup-route)\.tsx$/;

/** The console's shared layers (STYLE.md): small modules most pages use. */
const SHARED_LAYER = /apps[\\/]web[\\/]src[\\/](components[\\/]ui|lib)[\\/]/;

/**
 * The chunk a module of the signed-in path goes in, or `null` for rolldown's own split. Rolldown
 * makes one chunk per set of pages that share a module, which put the path to the device list in 44
 * script files, most under 3 kB, queued on six HTTP/1.1 connections behind the table's body (issue
 * 41 item 5). A module goes in the chunk of the first step that uses it when every page that uses it
 * comes after that step anyway: later steps and signed-in pages, which a cold open reaches through
 * /loading and the shell. The shared layers' modules the device list shares with other signed-in
 * pages go in the shell's chunk (a few kB every signed-in page then loads); what a signed-out page
 * shares with the path goes in one `common` chunk. Code the entry uses is left alone, and so is the
 * device list's feature code other pages use (they would load the device list's chunk). The console's
 * start (`app/boot.tsx`), which the entry imports once it has sent the first calls, is one chunk with
 * everything it reaches statically.
 */
export function routeChunkOf(moduleId: string, getModuleInfo: (id: string) => ModuleGraph | null): string | null {
  const pages = pagesUsing(moduleId, getModuleInfo);
  if (pages === null) return null;
  // What the console's start uses goes in its one chunk, with what pages share with it: loaded after
  // the entry's first calls, its 40 small chunks queued behind the calls' bodies (issue 41 item 5).
  if ([...pages].some((page) => BOOT.test(page))) return 'boot';
  const stepOf = (page: string) => STEPS.findIndex((step) => step.root.test(page));
  const steps = [...pages].map(stepOf);
  const first = Math.min(...steps.filter((index) => index >= 0));
  if (!Number.isFinite(first)) return null;
  if ([...pages].some((page) => SIGNED_OUT.test(page))) return 'common';
  // The shell and /loading come before every signed-in page; the device list before none.
  if (steps.every((step) => step >= first || (step === -1 && first < 2))) return STEPS[first]!.chunk;
  return SHARED_LAYER.test(moduleId) ? 'shell' : null;
}

/**
 * The pages (code-split roots: modules a dynamic `import()` loads) whose static imports reach
 * `moduleId`, or `null` when the entry reaches it.
 */
function pagesUsing(moduleId: string, getModuleInfo: (id: string) => ModuleGraph | null): Set<string> | null {
  const pages = new Set<string>();
  const seen = new Set<string>();
  const queue = [moduleId];
  while (queue.length > 0) {
    const id = queue.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    const info = getModuleInfo(id);
    if (!info || info.isEntry) return null;
    if (info.dynamicImporters.length > 0) pages.add(id);
    queue.push(...info.importers);
  }
  return pages;
}

/** The code-splitting group that applies {@link routeChunkOf}. */
export function routeChunkGroup(): Rolldown.CodeSplittingGroup {
  return {
    name: (moduleId, context) => routeChunkOf(moduleId, (id) => context.getModuleInfo(id)),
    // Only the modules named: what they import from elsewhere stays where rolldown puts it.
    includeDependenciesRecursively: false,
  };
}
