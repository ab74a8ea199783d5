import { WIDGET_TYPES, widgetRole, type WidgetType } from '@fieldlink/domain/widgets';

/** Groups of the add-widget picker, in the order shown. */
export const PICKER_GROUPS = [
  { id: 'indicators', label: 'Indicators' },
  { id: 'controls', label: 'Controls' },
  { id: 'charts', label: 'Charts and tables' },
  { id: 'text', label: 'Text' },
  { id: 'brew', label: 'Brewing' },
  { id: 'spray', label: 'Spray' },
] as const;
export type PickerGroupId = (typeof PICKER_GROUPS)[number]['id'];

const SPECIAL: Partial<Record<WidgetType, PickerGroupId>> = {
  chart: 'charts',
  table: 'charts',
  customText: 'text',
  brewOriginalGravity: 'brew',
  brewSummary: 'brew',
  lagTime: 'brew',
  mosnixManualSpray: 'spray',
};

/** The picker group of a widget type: verticals and text by name, the rest by role (§3). */
export function pickerGroupOf(type: WidgetType): PickerGroupId {
  return SPECIAL[type] ?? (widgetRole(type) === 'CONTROL' ? 'controls' : 'indicators');
}

/** Every widget type by picker group, each group in the specification's order of types. */
export function typesByPickerGroup(): { id: PickerGroupId; label: string; types: WidgetType[] }[] {
  return PICKER_GROUPS.map((group) => ({
    ...group,
    types: WIDGET_TYPES.filter((type) => pickerGroupOf(type) === group.id),
  }));
}
