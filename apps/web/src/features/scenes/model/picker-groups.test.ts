import { describe, expect, it } from 'vitest';
import { WIDGET_TYPES } from '@fieldlink/domain/widgets';
import { pickerGroupOf, typesByPickerGroup } from './picker-groups';

describe('picker groups', () => {
  it('offers every widget type exactly once', () => {
    const offered = typesByPickerGroup().flatMap((group) => group.types);
    expect(offered.sort()).toEqual([...WIDGET_TYPES].sort());
  });
  it('groups by role, with charts, text and the brew and spray verticals apart', () => {
    expect(pickerGroupOf('radial')).toBe('indicators');
    expect(pickerGroupOf('switch')).toBe('controls');
    expect(pickerGroupOf('table')).toBe('charts');
    expect(pickerGroupOf('customText')).toBe('text');
    expect(pickerGroupOf('lagTime')).toBe('brew');
    expect(pickerGroupOf('mosnixManualSpray')).toBe('spray');
  });
});
