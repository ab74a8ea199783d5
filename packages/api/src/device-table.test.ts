import fc from 'fast-check';
import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import {
  DEVICE_TABLE_NUMBER_FIELDS,
  DEVICE_TABLE_TEXT_FIELDS,
  DeviceTableAnswer,
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
