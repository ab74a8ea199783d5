import { describe, expect, it } from 'vitest';
import { WIDGET_TYPES, widgetRole } from '@fieldlink/domain/widgets';
import { WIDGET_DEFINITIONS } from './registry';

describe('WIDGET_DEFINITIONS', () => {
  it('defines every widget type of the specification, and no other', () =>
    expect(Object.keys(WIDGET_DEFINITIONS).sort()).toEqual([...WIDGET_TYPES].sort()));

  it.each(WIDGET_TYPES.map((type) => [type]))('%s is complete and consistent', (type) => {
    const definition = WIDGET_DEFINITIONS[type];
    expect(definition.type).toBe(type);
    expect(definition.role).toBe(widgetRole(type));
    expect(definition.label.trim()).not.toBe('');
    expect(definition.description.trim()).not.toBe('');
    expect(typeof definition.View).toMatch(/function|object/);
    expect(typeof definition.Icon).toMatch(/function|object/);
    expect(new Set(definition.sections).size).toBe(definition.sections.length);
    // A widget that reads a channel lets the user choose it, and one that reads none does not.
    expect(definition.sections.includes('channels')).toBe(definition.maxChannels > 0);
  });

  it('labels are unique, so the add-widget picker can tell types apart', () => {
    const labels = Object.values(WIDGET_DEFINITIONS).map((d) => d.label);
    expect(new Set(labels).size).toBe(labels.length);
  });

  it.each([
    ['custom text reads no channel', 'customText', 0],
    ['value reads one', 'value', 1],
    ['the manual spray control reads one', 'mosnixManualSpray', 1],
  ] as const)('%s', (_label, type, max) => expect(WIDGET_DEFINITIONS[type].maxChannels).toBe(max));
});
