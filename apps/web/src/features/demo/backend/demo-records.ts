import type { AppType } from '@fieldlink/domain/app-variant';
import { lazyDatabase, requested } from '../../../lib/indexed-db';
import type { DemoBreweryRecords } from './demo-brewery';

/**
 * What a demo keeps in the browser between visits (IndexedDB, one record per app variant): when it
 * began, which fixes the start of the simulated history (the plants replay the same days on every
 * visit, so a batch's start stays where its tank was filled), and the brewing records the prospect
 * made (application §4: demo batches are kept locally without server calls).
 */
export interface DemoRecords {
  appType: AppType;
  /** Unix ms when the demo began. */
  begunAt: number;
  brewery: DemoBreweryRecords | null;
}

// One record per app variant, in database `fieldlink-demo`, object store `demos`.
const STORE = 'demos';
const database = lazyDatabase(() => indexedDB, 'fieldlink-demo', STORE, 'appType');

async function store(mode: IDBTransactionMode): Promise<IDBObjectStore> {
  return (await database()).transaction(STORE, mode).objectStore(STORE);
}

/** The stored demo of a variant, or null when none was begun (or storage is unavailable). */
export async function loadDemoRecords(appType: AppType): Promise<DemoRecords | null> {
  try {
    return ((await requested((await store('readonly')).get(appType))) as DemoRecords | undefined) ?? null;
  } catch {
    return null;
  }
}

/** Keeps the demo's records; a browser without IndexedDB keeps them for this page only. */
export async function saveDemoRecords(records: DemoRecords): Promise<void> {
  try {
    await requested((await store('readwrite')).put(records));
  } catch {
    // Private windows of some browsers refuse IndexedDB: the demo still runs, it just forgets.
  }
}

/** Forgets a variant's demo: the next visit starts over. */
export async function deleteDemoRecords(appType: AppType): Promise<void> {
  try {
    await requested((await store('readwrite')).delete(appType));
  } catch {
    // Nothing stored, nothing to forget.
  }
}
