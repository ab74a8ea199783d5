import { describe, expect, it } from 'vitest';
import { DEFAULT_COLUMN_KEYS } from '@fieldlink/domain/device-columns';
import {
  COLUMNS_STORAGE_KEY,
  DEFAULT_SORT,
  nextSort,
  readColumns,
  readFilters,
  readSort,
  SORT_STORAGE_KEY,
  writeColumns,
  writeFilters,
  writeSort,
  type SettingsStorage,
} from './table-settings';

function memoryStorage(initial: Record<string, string> = {}): SettingsStorage & { items: Map<string, string> } {
  const items = new Map(Object.entries(initial));
  return { items, getItem: (key) => items.get(key) ?? null, setItem: (key, value) => void items.set(key, value) };
}

describe('table settings in local storage', () => {
  it('keeps the filter under the specification’s key deviceFilter', () => {
    const storage = memoryStorage();
    writeFilters(storage, [{ type: 'LIMIT', value: '5' }]);
    expect(JSON.parse(storage.items.get('deviceFilter')!)).toEqual([{ type: 'LIMIT', value: '5' }]);
    expect(readFilters(storage)).toEqual([{ type: 'LIMIT', value: '5' }]);
  });

  it('round-trips the column choice and the sort', () => {
    const storage = memoryStorage();
    writeColumns(storage, ['fw', 'name']);
    writeSort(storage, { key: 'fw', direction: 'desc' });
    expect(readColumns(storage)).toEqual(['fw', 'name']);
    expect(readSort(storage)).toEqual({ key: 'fw', direction: 'desc' });
    writeSort(storage, null);
    expect(readSort(storage)).toBeNull();
  });

  it.each([
    ['nothing stored', {}],
    ['not JSON', { deviceFilter: '{', [COLUMNS_STORAGE_KEY]: '[', [SORT_STORAGE_KEY]: 'x' }],
    [
      'the wrong shapes',
      { deviceFilter: '5', [COLUMNS_STORAGE_KEY]: '{}', [SORT_STORAGE_KEY]: '{"key":"gone","direction":"up"}' },
    ],
  ])('falls back to the defaults for %s', (_label, items) => {
    const storage = memoryStorage(items as Record<string, string>);
    expect(readFilters(storage)).toEqual([]);
    expect(readColumns(storage)).toEqual([...DEFAULT_COLUMN_KEYS]);
    expect(readSort(storage)).toEqual(DEFAULT_SORT);
  });

  it('lives without storage (blocked or full)', () => {
    const throwing: SettingsStorage = {
      getItem: () => {
        throw new Error('blocked');
      },
      setItem: () => {
        throw new Error('full');
      },
    };
    expect(() => writeColumns(throwing, ['name'])).not.toThrow();
    expect(readColumns(throwing)).toEqual([...DEFAULT_COLUMN_KEYS]);
    expect(readFilters(null)).toEqual([]);
  });

  it.each([
    [null, 'fw', { key: 'fw', direction: 'asc' }],
    [{ key: 'fw', direction: 'asc' as const }, 'fw', { key: 'fw', direction: 'desc' }],
    [{ key: 'fw', direction: 'desc' as const }, 'fw', { key: 'fw', direction: 'asc' }],
    [{ key: 'fw', direction: 'desc' as const }, 'name', { key: 'name', direction: 'asc' }],
  ])('a header click after %j on %s sorts %j', (current, key, expected) =>
    expect(nextSort(current, key)).toEqual(expected),
  );
});
