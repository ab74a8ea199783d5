import type { AppType } from '@fieldlink/domain/app-variant';
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

const DATABASE = 'fieldlink-demo';
const STORE = 'demos';
const VERSION = 1;

function request<T>(call: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    call.onsuccess = () => resolve(call.result);
    call.onerror = () => reject(call.error ?? new Error('IndexedDB request failed'));
  });
}

let opening: Promise<IDBDatabase> | null = null;

function database(): Promise<IDBDatabase> {
  opening ??= new Promise((resolve, reject) => {
    const open = indexedDB.open(DATABASE, VERSION);
    open.onupgradeneeded = () => open.result.createObjectStore(STORE, { keyPath: 'appType' });
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error ?? new Error('IndexedDB is not available'));
  });
  return opening;
}

async function store(mode: IDBTransactionMode): Promise<IDBObjectStore> {
  return (await database()).transaction(STORE, mode).objectStore(STORE);
}

/** The stored demo of a variant, or null when none was begun (or storage is unavailable). */
export async function loadDemoRecords(appType: AppType): Promise<DemoRecords | null> {
  try {
    return ((await request((await store('readonly')).get(appType))) as DemoRecords | undefined) ?? null;
  } catch {
    return null;
  }
}

/** Keeps the demo's records; a browser without IndexedDB keeps them for this page only. */
export async function saveDemoRecords(records: DemoRecords): Promise<void> {
  try {
    await request((await store('readwrite')).put(records));
  } catch {
    // Private windows of some browsers refuse IndexedDB: the demo still runs, it just forgets.
  }
}

/** Forgets a variant's demo: the next visit starts over. */
export async function deleteDemoRecords(appType: AppType): Promise<void> {
  try {
    await request((await store('readwrite')).delete(appType));
  } catch {
    // Nothing stored, nothing to forget.
  }
}
