import { describe, expect, it } from 'vitest';
import {
  COLUMN_SET_LABELS,
  COLUMN_SETS,
  COLUMN_VALUE_TYPES,
  DEFAULT_COLUMN_KEYS,
  DEVICE_COLUMNS,
  deviceColumn,
  normaliseColumnChoice,
} from './device-columns';

describe('device table columns (core §2)', () => {
  it('has unique keys and a known value type for every column', () => {
    expect(new Set(DEVICE_COLUMNS.map((column) => column.key)).size).toBe(DEVICE_COLUMNS.length);
    for (const column of DEVICE_COLUMNS) expect(COLUMN_VALUE_TYPES).toContain(column.type);
  });

  // An emptied label went unnoticed by every test (mutation testing, issue 37 item 7).
  it('names every column and every set once, in words', () => {
    const labels = DEVICE_COLUMNS.map((column) => column.label);
    for (const label of labels) expect(label).toMatch(/^\S(.*\S)?$/);
    expect(new Set(labels).size).toBe(labels.length);
    for (const set of COLUMN_SETS) expect(COLUMN_SET_LABELS[set]).toMatch(/^[A-Z]/);
  });

  it('shows only known columns by default, the name first', () => {
    expect(DEFAULT_COLUMN_KEYS[0]).toBe('name');
    for (const key of DEFAULT_COLUMN_KEYS) expect(deviceColumn(key)?.key).toBe(key);
  });

  it('offers the three sets and the extra columns of §2', () => {
    const count = (set: string) => DEVICE_COLUMNS.filter((column) => column.set === set).length;
    expect([count('device'), count('healthAndCellular'), count('groupsAndMacros'), count('more')]).toEqual([
      20, 19, 4, 7,
    ]);
  });

  it.each([
    ['fw', 'version'],
    ['custom', 'stringAndVersion'],
    ['lastConnection', 'dateTime'],
    ['isConnected', 'boolean'],
    ['macros', 'object'],
    ['distance', 'number'],
  ])('%s is of type %s', (key, type) => expect(deviceColumn(key)?.type).toBe(type));

  it.each([
    ['a good choice', ['fw', 'name'], ['fw', 'name']],
    ['unknown and repeated keys dropped', ['name', 'gone', 'name', 7], ['name']],
    ['an empty choice', [], [...DEFAULT_COLUMN_KEYS]],
    ['not a list', 'name', [...DEFAULT_COLUMN_KEYS]],
  ])('normaliseColumnChoice: %s', (_label, stored, expected) =>
    expect(normaliseColumnChoice(stored)).toEqual(expected),
  );
});
