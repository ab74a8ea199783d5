import type { DeviceTableGroup } from '@fieldlink/api/device-table';
import { deviceColumn } from '@fieldlink/domain/device-columns';
import {
  attributeTypeOf,
  isActiveFilter,
  parseFilterBoolean,
  type DeviceFilter,
} from '@fieldlink/domain/device-filter';
import { ALARM_SEVERITIES } from '@fieldlink/domain/alarms';
import { alarmBitLabel, ANY_ALARM, NO_ALARM } from '@fieldlink/domain/status-alarms';

/** Words for the operators, as a filter chip reads. */
const OPERATOR_WORDS: Record<string, string> = {
  '=': 'is',
  '!=': 'is not',
  Contains: 'contains',
  'Not Contains': 'does not contain',
  'Begins With': 'begins with',
  '<': '<',
  '<=': '≤',
  '>': '>',
  '>=': '≥',
};

/** Labels of the GROUP filter's modes (§3). */
export const GROUP_MODE_LABELS: Record<string, string> = {
  INCLUDE: 'Include group',
  EXCLUDE: 'Exclude group',
  ONLY_NEW_GROUPS: 'Only new-device groups',
  EXCLUDE_ALL_NEW_GROUPS: 'Exclude all new-device groups',
};

/** Labels of the filter types. */
export const FILTER_TYPE_LABELS: Record<DeviceFilter['type'], string> = {
  ATTRIBUTE: 'Attribute',
  GROUP: 'Group',
  ALARM: 'Alarm',
  LIMIT: 'Limit',
  GEO_DISTANCE: 'Distance',
};

const SEVERITY_WORDS: Record<string, string> = {
  CRITICAL: 'Critical',
  MAJOR: 'Major',
  MINOR: 'Minor',
  WARNING: 'Warning',
};

/** The ALARM filter's choice as words. */
export function alarmChoiceLabel(choice: string): string {
  if (choice === ANY_ALARM) return 'Any alarm';
  if (choice === NO_ALARM) return 'No alarm';
  if ((ALARM_SEVERITIES as readonly string[]).includes(choice)) return `${SEVERITY_WORDS[choice]} alarm`;
  return /^[0-9]+$/.test(choice) ? alarmBitLabel(Number(choice)) : choice;
}

/** A filter in a few words, for its chip: `Name contains "pump"`, `Within 10 km`. Null when it is ignored. */
export function describeFilter(filter: DeviceFilter, groups: readonly DeviceTableGroup[] = []): string | null {
  if (!isActiveFilter(filter)) return null;
  const value = String(filter.value ?? '').trim();
  switch (filter.type) {
    case 'ATTRIBUTE': {
      const label = deviceColumn(filter.attribute ?? '')?.label ?? filter.attribute ?? '';
      const words = OPERATOR_WORDS[filter.operator ?? ''] ?? filter.operator;
      if (attributeTypeOf(filter) === 'boolean') {
        const wanted = parseFilterBoolean(filter.value);
        const shown = filter.attribute === 'isConnected' ? (wanted ? 'Online' : 'Offline') : wanted ? 'yes' : 'no';
        return `${label} ${words} ${shown}`;
      }
      return attributeTypeOf(filter) === 'string' ? `${label} ${words} “${value}”` : `${label} ${words} ${value}`;
    }
    case 'GROUP': {
      const mode = filter.operator ?? '';
      if (mode === 'ONLY_NEW_GROUPS') return 'Only new-device groups';
      if (mode === 'EXCLUDE_ALL_NEW_GROUPS') return 'No new-device groups';
      const group = groups.find((candidate) => candidate.id === value || candidate.path === value);
      return `${mode === 'INCLUDE' ? 'In' : 'Not in'} ${group?.name ?? value}`;
    }
    case 'ALARM':
      return alarmChoiceLabel(String(filter.selectedAlarm ?? filter.value ?? '').trim());
    case 'LIMIT':
      return `First ${Math.floor(Number(value))}`;
    case 'GEO_DISTANCE':
      return `Within ${value} ${filter.operator === 'miles' ? 'mi' : 'km'} of ${Number(filter.latitude).toFixed(4)}, ${Number(filter.longitude).toFixed(4)}`;
  }
}

/** A new, empty filter of a type, with the fields its editor starts from. */
export function newFilter(type: DeviceFilter['type']): DeviceFilter {
  switch (type) {
    case 'ATTRIBUTE':
      return { type, attribute: 'name', attributeType: 'string', operator: 'Contains', value: '' };
    case 'GROUP':
      return { type, operator: 'INCLUDE', value: '' };
    case 'ALARM':
      return { type, selectedAlarm: ANY_ALARM };
    case 'LIMIT':
      return { type, value: '' };
    case 'GEO_DISTANCE':
      return { type, operator: 'kilometers', value: '', latitude: '', longitude: '' };
  }
}
