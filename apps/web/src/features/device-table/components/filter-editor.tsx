import type { DeviceTableGroup } from '@fieldlink/api/device-table';
import { COLUMN_SET_LABELS, COLUMN_SETS, DEVICE_COLUMNS } from '@fieldlink/domain/device-columns';
import {
  attributeTypeOf,
  FILTER_TYPES,
  filterTypeOfColumn,
  GROUP_MODES,
  isActiveFilter,
  operatorsFor,
  parseFilterDate,
  type DeviceFilter,
  type FilterAttributeType,
} from '@fieldlink/domain/device-filter';
import { DISTANCE_UNITS } from '@fieldlink/domain/geo';
import { ALARM_SEVERITIES } from '@fieldlink/domain/alarms';
import { ANY_ALARM, MAX_ALARM_BIT, NO_ALARM } from '@fieldlink/domain/status-alarms';
import { Button } from '../../../components/ui/button';
import { CloseIcon, PlusIcon } from '../../../components/ui/icons';
import { dateTimeInputValue, instantOfDateTimeInput } from '@fieldlink/domain/date-format';
import { usePageClock } from '../../../lib/page-time-zone';
import { alarmChoiceLabel, FILTER_TYPE_LABELS, GROUP_MODE_LABELS, newFilter } from '../model/filter-text';

export interface FilterEditorProps {
  filters: readonly DeviceFilter[];
  onChange: (filters: DeviceFilter[]) => void;
  groups: readonly DeviceTableGroup[];
  groupPathNames: readonly string[];
}

const OPERATOR_LABELS: Record<string, string> = {
  '=': 'is',
  '!=': 'is not',
  Contains: 'contains',
  'Not Contains': 'does not contain',
  'Begins With': 'begins with',
  '<': 'less than',
  '<=': 'at most',
  '>': 'more than',
  '>=': 'at least',
};

const DATE_OPERATOR_LABELS: Record<string, string> = {
  '=': 'at',
  '!=': 'not at',
  '<': 'before',
  '<=': 'at or before',
  '>': 'after',
  '>=': 'at or after',
};

const ALARM_CHOICES = [
  ANY_ALARM,
  NO_ALARM,
  ...ALARM_SEVERITIES,
  ...Array.from({ length: MAX_ALARM_BIT + 1 }, (_, bit) => String(bit)),
];

/** The filter editor: one line per filter, each with the fields its type needs (§3 Filter). */
export function FilterEditor({ filters, onChange, groups, groupPathNames }: FilterEditorProps) {
  const update = (index: number, next: DeviceFilter) =>
    onChange(filters.map((filter, i) => (i === index ? next : filter)));
  const remove = (index: number) => onChange(filters.filter((_, i) => i !== index));
  return (
    <section className="dt-filters" aria-label="Filters">
      {filters.length === 0 ? (
        <p className="dt-filters__empty">
          No filters yet. Add one to narrow the table by attribute, group, alarm, distance or count.
        </p>
      ) : (
        <ol className="dt-filters__list">
          {filters.map((filter, index) => (
            <li
              key={index}
              className={`dt-filter${isActiveFilter(filter) ? '' : ' is-incomplete'}`}
              data-testid="filter-row"
            >
              <span className="dt-filter__join" aria-hidden="true">
                {index === 0 ? 'Where' : 'and'}
              </span>
              <select
                className="fl-select dt-filter__type"
                aria-label="Filter type"
                value={filter.type}
                onChange={(event) => update(index, newFilter(event.target.value as DeviceFilter['type']))}
              >
                {FILTER_TYPES.map((type) => (
                  <option key={type} value={type}>
                    {FILTER_TYPE_LABELS[type]}
                  </option>
                ))}
              </select>
              <FilterFields
                filter={filter}
                onChange={(next) => update(index, next)}
                groups={groups}
                groupPathNames={groupPathNames}
              />
              {!isActiveFilter(filter) && <span className="dt-filter__hint">Incomplete: not applied</span>}
              <button
                type="button"
                className="dt-icon-button dt-filter__remove"
                aria-label="Remove filter"
                title="Remove filter"
                onClick={() => remove(index)}
              >
                <CloseIcon size={16} />
              </button>
            </li>
          ))}
        </ol>
      )}
      <div className="dt-filters__actions">
        <Button size="sm" variant="secondary" onClick={() => onChange([...filters, newFilter('ATTRIBUTE')])}>
          <PlusIcon size={15} /> Add filter
        </Button>
        {filters.length > 0 && (
          <Button size="sm" variant="ghost" onClick={() => onChange([])}>
            Clear all
          </Button>
        )}
      </div>
    </section>
  );
}

interface FieldsProps {
  filter: DeviceFilter;
  onChange: (filter: DeviceFilter) => void;
  groups: readonly DeviceTableGroup[];
  groupPathNames: readonly string[];
}

function FilterFields({ filter, onChange, groups, groupPathNames }: FieldsProps) {
  const value = filter.value === undefined ? '' : String(filter.value);
  switch (filter.type) {
    case 'ATTRIBUTE':
      return <AttributeFields filter={filter} onChange={onChange} />;
    case 'GROUP': {
      const needsGroup = filter.operator === 'INCLUDE' || filter.operator === 'EXCLUDE';
      return (
        <>
          <select
            className="fl-select"
            aria-label="Group filter mode"
            value={filter.operator ?? ''}
            onChange={(event) => onChange({ ...filter, operator: event.target.value })}
          >
            {GROUP_MODES.map((mode) => (
              <option key={mode} value={mode}>
                {GROUP_MODE_LABELS[mode]}
              </option>
            ))}
          </select>
          {needsGroup && (
            <select
              className="fl-select dt-filter__wide"
              aria-label="Group"
              value={value}
              onChange={(event) => onChange({ ...filter, value: event.target.value })}
            >
              <option value="">Choose a group…</option>
              {groups.map((group, index) => (
                <option key={group.id} value={group.id}>
                  {groupPathNames[index] || group.name}
                </option>
              ))}
            </select>
          )}
        </>
      );
    }
    case 'ALARM':
      return (
        <select
          className="fl-select"
          aria-label="Alarm"
          value={filter.selectedAlarm ?? ''}
          onChange={(event) => onChange({ ...filter, selectedAlarm: event.target.value })}
        >
          {ALARM_CHOICES.map((choice) => (
            <option key={choice} value={choice}>
              {alarmChoiceLabel(choice)}
            </option>
          ))}
        </select>
      );
    case 'LIMIT':
      return (
        <label className="dt-filter__inline">
          <span>Show the first</span>
          <input
            className="fl-input dt-filter__input dt-filter__input--short"
            aria-label="Limit"
            inputMode="numeric"
            placeholder="100"
            value={value}
            onChange={(event) => onChange({ ...filter, value: event.target.value })}
          />
          <span>devices</span>
        </label>
      );
    case 'GEO_DISTANCE':
      return (
        <span className="dt-filter__inline">
          <span>Within</span>
          <input
            className="fl-input dt-filter__input dt-filter__input--short"
            aria-label="Distance"
            inputMode="decimal"
            placeholder="10"
            value={value}
            onChange={(event) => onChange({ ...filter, value: event.target.value })}
          />
          <select
            className="fl-select"
            aria-label="Distance unit"
            value={filter.operator ?? ''}
            onChange={(event) => onChange({ ...filter, operator: event.target.value })}
          >
            {DISTANCE_UNITS.map((unit) => (
              <option key={unit} value={unit}>
                {unit === 'miles' ? 'miles' : 'km'}
              </option>
            ))}
          </select>
          <span>of</span>
          <input
            className="fl-input dt-filter__input"
            aria-label="Latitude"
            inputMode="decimal"
            placeholder="Latitude"
            value={filter.latitude === undefined ? '' : String(filter.latitude)}
            onChange={(event) => onChange({ ...filter, latitude: event.target.value })}
          />
          <input
            className="fl-input dt-filter__input"
            aria-label="Longitude"
            inputMode="decimal"
            placeholder="Longitude"
            value={filter.longitude === undefined ? '' : String(filter.longitude)}
            onChange={(event) => onChange({ ...filter, longitude: event.target.value })}
          />
        </span>
      );
  }
}

/** A date-time filter's value as its field shows it, in the page's zone (blank when it is none). */
function dateInputOf(value: string, timeZone: string): string {
  const time = parseFilterDate(value);
  return time === null ? '' : dateTimeInputValue(time, timeZone);
}

function AttributeFields({ filter, onChange }: { filter: DeviceFilter; onChange: (filter: DeviceFilter) => void }) {
  const { timeZone } = usePageClock();
  const type: FilterAttributeType = attributeTypeOf(filter) ?? 'string';
  const operators = operatorsFor(type);
  const value = filter.value === undefined ? '' : String(filter.value);
  const labels = type === 'dateTime' ? DATE_OPERATOR_LABELS : OPERATOR_LABELS;
  const onAttribute = (key: string) => {
    const column = DEVICE_COLUMNS.find((candidate) => candidate.key === key);
    const nextType = column ? filterTypeOfColumn(column.type) : 'string';
    const nextOperators = operatorsFor(nextType);
    onChange({
      ...filter,
      attribute: key,
      attributeType: nextType,
      operator: nextOperators.includes(filter.operator ?? '') ? filter.operator : nextOperators[0],
      // A value typed for another type rarely means anything for this one.
      value: nextType === type ? filter.value : nextType === 'boolean' ? 'true' : '',
    });
  };
  return (
    <>
      <select
        className="fl-select dt-filter__attribute"
        aria-label="Attribute"
        value={filter.attribute ?? ''}
        onChange={(event) => onAttribute(event.target.value)}
      >
        {COLUMN_SETS.map((set) => (
          <optgroup key={set} label={COLUMN_SET_LABELS[set]}>
            {DEVICE_COLUMNS.filter((column) => column.set === set && column.key !== 'distance').map((column) => (
              <option key={column.key} value={column.key}>
                {column.label}
              </option>
            ))}
          </optgroup>
        ))}
      </select>
      <select
        className="fl-select"
        aria-label="Operator"
        value={filter.operator ?? ''}
        onChange={(event) => onChange({ ...filter, operator: event.target.value })}
      >
        {operators.map((operator) => (
          <option key={operator} value={operator}>
            {labels[operator] ?? operator}
          </option>
        ))}
      </select>
      {type === 'boolean' ? (
        <select
          className="fl-select"
          aria-label="Value"
          value={value}
          onChange={(event) => onChange({ ...filter, value: event.target.value })}
        >
          <option value="true">{filter.attribute === 'isConnected' ? 'Online' : 'Yes'}</option>
          <option value="false">{filter.attribute === 'isConnected' ? 'Offline' : 'No'}</option>
        </select>
      ) : type === 'dateTime' ? (
        <input
          className="fl-input dt-filter__input dt-filter__input--date"
          type="datetime-local"
          aria-label="Value"
          value={dateInputOf(value, timeZone)}
          // Kept as the instant (unix ms) the field names in the page's zone, whoever reads it later.
          onChange={(event) =>
            onChange({ ...filter, value: String(instantOfDateTimeInput(event.target.value, timeZone) ?? '') })
          }
        />
      ) : (
        <input
          className="fl-input dt-filter__input"
          aria-label="Value"
          inputMode={type === 'number' ? 'decimal' : undefined}
          placeholder={type === 'version' ? 'e.g. 4.10.2' : type === 'number' ? 'Number' : 'Text'}
          value={value}
          onChange={(event) => onChange({ ...filter, value: event.target.value })}
        />
      )}
    </>
  );
}
