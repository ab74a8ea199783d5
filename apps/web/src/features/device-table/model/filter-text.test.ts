import { describe, expect, it } from 'vitest';
import { FILTER_TYPES, isActiveFilter, type DeviceFilter } from '@fieldlink/domain/device-filter';
import { FIXTURE_GROUPS } from './fixtures';
import { describeFilter, newFilter } from './filter-text';

describe('describeFilter', () => {
  it.each<[DeviceFilter, string | null]>([
    [{ type: 'ATTRIBUTE', attribute: 'name', operator: 'Contains', value: 'pump' }, 'Name contains “pump”'],
    [{ type: 'ATTRIBUTE', attribute: 'fw', operator: '>=', value: '4.10' }, 'Firmware ≥ 4.10'],
    [{ type: 'ATTRIBUTE', attribute: 'isConnected', operator: '=', value: 'false' }, 'Connection status is Offline'],
    [{ type: 'ATTRIBUTE', attribute: 'muted', operator: '!=', value: 'true' }, 'Mute disconnections is not yes'],
    [{ type: 'GROUP', operator: 'INCLUDE', value: 'cellar' }, 'In Cellar'],
    [{ type: 'GROUP', operator: 'EXCLUDE', value: './root/cellar/tanks' }, 'Not in Tanks'],
    [{ type: 'GROUP', operator: 'ONLY_NEW_GROUPS' }, 'Only new-device groups'],
    [{ type: 'ALARM', selectedAlarm: 'ANY' }, 'Any alarm'],
    [{ type: 'ALARM', selectedAlarm: '7' }, 'Alarm 7'],
    [{ type: 'LIMIT', value: '25' }, 'First 25'],
    [
      { type: 'GEO_DISTANCE', operator: 'miles', value: '5', latitude: 1, longitude: '2' },
      'Within 5 mi of 1.0000, 2.0000',
    ],
    [{ type: 'ATTRIBUTE', attribute: 'name', operator: 'Contains', value: ' ' }, null],
  ])('%j -> %j', (filter, text) => expect(describeFilter(filter, FIXTURE_GROUPS)).toBe(text));
});

describe('newFilter', () => {
  it.each(FILTER_TYPES)('starts a %s filter that is ignored until filled in, except ALARM (any alarm)', (type) => {
    expect(isActiveFilter(newFilter(type))).toBe(type === 'ALARM');
  });
});
