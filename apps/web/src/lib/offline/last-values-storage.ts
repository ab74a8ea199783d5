import type { ClockPreferences } from '@fieldlink/domain/date-format';
import type { OfflineValue } from '@fieldlink/domain/offline-values';
import { lazyDatabase, requested } from '../indexed-db';

/** What one user's browser keeps for an offline start: their last values and their clock choices. */
export interface LastValuesRecord {
  userId: string;
  /** When the values were written down, unix ms. */
  savedAt: number;
  clock: ClockPreferences;
  values: OfflineValue[];
}

/** Where the last values are kept, one record per user id. */
export interface LastValuesStorage {
  read(userId: string): Promise<LastValuesRecord | null>;
  write(record: LastValuesRecord): Promise<void>;
  /** Forgets every user's values but those of `keepUserId` (everyone's when it is absent). */
  clear(keepUserId?: string): Promise<void>;
}

const DATABASE = 'fieldlink-last-values';
const STORE = 'users';

function completed(transaction: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    transaction.oncomplete = () => resolve();
    transaction.onerror = () => reject(transaction.error ?? new Error('IndexedDB transaction failed'));
    transaction.onabort = () => reject(transaction.error ?? new Error('IndexedDB transaction aborted'));
  });
}

/**
 * The browser's IndexedDB as {@link LastValuesStorage}: database `fieldlink-last-values`, object store
 * `users` keyed by user id. The database is opened once, on first use.
 */
export function indexedDbLastValues(factory: IDBFactory): LastValuesStorage {
  const database = lazyDatabase(() => factory, DATABASE, STORE, 'userId');
  return {
    async read(userId) {
      const db = await database();
      const found = await requested(db.transaction(STORE).objectStore(STORE).get(userId));
      return (found as LastValuesRecord | undefined) ?? null;
    },
    async write(record) {
      const db = await database();
      const transaction = db.transaction(STORE, 'readwrite');
      const done = completed(transaction);
      transaction.objectStore(STORE).put(record);
      await done;
    },
    async clear(keepUserId) {
      const db = await database();
      const transaction = db.transaction(STORE, 'readwrite');
      const done = completed(transaction);
      const store = transaction.objectStore(STORE);
      if (keepUserId === undefined) store.clear();
      // The deletes are issued in the keys' success event, while the transaction is still active.
      else
        requested(store.getAllKeys()).then(
          (keys) => keys.filter((key) => key !== keepUserId).forEach((key) => store.delete(key)),
          () => undefined,
        );
      await done;
    },
  };
}
