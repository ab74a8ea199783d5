/** What an IndexedDB request gives, as a promise. */
export function requested<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB request failed'));
  });
}

/**
 * A database of one object store keyed by `keyPath`, opened once, on first use (version 1 creates the
 * store). The returned function gives the open database; a failed open stays failed for the page.
 */
export function lazyDatabase(
  factory: () => IDBFactory,
  name: string,
  store: string,
  keyPath: string,
): () => Promise<IDBDatabase> {
  let opened: Promise<IDBDatabase> | null = null;
  return () => {
    opened ??= new Promise<IDBDatabase>((resolve, reject) => {
      const request = factory().open(name, 1);
      request.onupgradeneeded = () => request.result.createObjectStore(store, { keyPath });
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error ?? new Error('IndexedDB did not open'));
    });
    return opened;
  };
}
