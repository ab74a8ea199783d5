import fc from 'fast-check';
import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import {
  DEVICE_TABLE_NUMBER_FIELDS,
  DEVICE_TABLE_TEXT_FIELDS,
  DeviceTableAnswer,
  DeviceTableColumns,
  encodeTextColumn,
  textColumnValues,
} from './device-table';

describe('text columns', () => {
  it('send repeating values as a dictionary', () => {
    expect(encodeTextColumn(['4.1', '4.2', null, '4.1'])).toEqual({ dict: ['4.1', '4.2'], codes: [0, 1, -1, 0] });
  });

  it('send mostly distinct values plainly', () => {
    expect(encodeTextColumn(['a', 'b', 'c', null])).toEqual({ values: ['a', 'b', 'c', null] });
  });

  it('read back as they were, in either form', () => {
    const values = fc.array(fc.option(fc.constantFrom('a', 'b', '', 'c d'), { nil: null }), { maxLength: 50 });
    const distinct = fc.array(fc.option(fc.string(), { nil: null }), { maxLength: 50 });
    fc.assert(
      fc.property(fc.oneof(values, distinct), (column) => {
        expect(textColumnValues(encodeTextColumn(column))).toEqual(column);
      }),
    );
  });
});

describe('DeviceTableAnswer', () => {
  const empty = {
    format: 1,
    generatedAt: 1,
    count: 0,
    groups: [],
    text: Object.fromEntries(DEVICE_TABLE_TEXT_FIELDS.map((field) => [field, { values: [] }])),
    numbers: Object.fromEntries(DEVICE_TABLE_NUMBER_FIELDS.map((field) => [field, []])),
  };

  it('accepts a well-formed answer and refuses extra or missing fields', () => {
    expect(Value.Check(DeviceTableAnswer, empty)).toBe(true);
    expect(Value.Check(DeviceTableAnswer, { ...empty, text: { ...empty.text, secret: { values: [] } } })).toBe(false);
    const { id: _id, ...withoutId } = empty.text;
    expect(Value.Check(DeviceTableAnswer, { ...empty, text: withoutId })).toBe(false);
  });
});

describe('DeviceTableColumns', () => {
  const line = (id: string, fw: string | null, group: number) => ({
    text: { ...Object.fromEntries(DEVICE_TABLE_TEXT_FIELDS.map((field) => [field, null])), id, fw },
    numbers: { ...Object.fromEntries(DEVICE_TABLE_NUMBER_FIELDS.map((field) => [field, null])), group },
  });

  it('answers the lines added as columns, counted, each text column in its smaller form', () => {
    const columns = new DeviceTableColumns();
    for (const [id, fw, group] of [
      ['d1', '4.1', 0],
      ['d2', '4.1', 1],
      ['d3', '4.1', 0],
    ] as const) {
      columns.add(line(id, fw, group) as Parameters<DeviceTableColumns['add']>[0]);
    }
    const groups = [
      { id: 'r', name: 'Root', kind: 'root' as const, path: './r' },
      { id: 'g', name: 'Cellar', kind: 'group' as const, path: './r/g' },
    ];
    const answer = columns.answer(groups, 42);
    expect(Value.Check(DeviceTableAnswer, answer)).toBe(true);
    expect([answer.count, answer.generatedAt, answer.groups]).toEqual([3, 42, groups]);
    expect(answer.text.fw).toEqual({ dict: ['4.1'], codes: [0, 0, 0] });
    expect(textColumnValues(answer.text.id)).toEqual(['d1', 'd2', 'd3']);
    expect(answer.numbers.group).toEqual([0, 1, 0]);
  });

  it('answers an empty table without lines', () => {
    const answer = new DeviceTableColumns().answer([], 1);
    expect([answer.count, textColumnValues(answer.text.id), answer.numbers.group]).toEqual([0, [], []]);
  });
});
