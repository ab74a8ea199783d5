import type { ArcSegment, Widget } from '@fieldlink/api/scenes';
import { normaliseChannelCode } from '@fieldlink/domain/channels';
import { widgetProblem, widgetWithDefaults, type WidgetType } from '@fieldlink/domain/widgets';
import type { EditorSection, WidgetDraft } from '../widgets/widget-definition';

/**
 * The widget editor's form: the draft the dialog saves, with the numbers as the text typed (so "-"
 * or "1." can be typed on the way to a number), and its validation. Messages are ours: the
 * specification shows none for this form (§5 "Form validation messages beyond those above").
 */

export interface ChannelRow {
  deviceId: string;
  /** Empty until a channel of the device is chosen. */
  code: string;
  name?: string;
  legendVisibility: boolean;
}

export interface ArcSegmentRow {
  /** Stable key of the row while it is edited. */
  key: number;
  endValue: string;
  color: string;
  text: string;
}

export interface WidgetForm {
  /** Every field the number inputs do not hold. */
  draft: WidgetDraft;
  channels: ChannelRow[];
  min: string;
  max: string;
  increment: string;
  arcSegments: ArcSegmentRow[];
}

export interface WidgetFormErrors {
  name?: string;
  channels?: string;
  channelRows?: (string | undefined)[];
  min?: string;
  max?: string;
  increment?: string;
  arcSegments?: (string | undefined)[];
  units?: string;
  text?: string;
  colours?: string;
}

/** What the form needs of a widget type's definition. */
export interface FormType {
  label: string;
  sections: readonly EditorSection[];
  maxChannels: number;
}

export const NAME_MAX = 120;
export const UNITS_MAX = 20;
export const TEXT_MAX = 2000;
export const COLOUR_MAX = 40;
export const ARC_SEGMENTS_MAX = 12;

/** A new widget of a type with the defaults of §3; a one-channel widget takes its channel's name. */
export function newWidgetDraft(type: WidgetType, definition: FormType): WidgetDraft {
  return widgetWithDefaults({
    type,
    // A chart is called "Chart" (§3); other types start with their label.
    ...(type === 'chart' ? {} : { name: definition.label }),
    doesInheritName: definition.maxChannels === 1,
    channels: [],
    arcSegments: [],
    annotations: [],
    yAxis: [],
    ...(type === 'customText' ? { value: '' } : {}),
  });
}

/** The draft of a stored widget: its fields without the scene's ids and its path. */
export function draftOfWidget(widget: Widget): WidgetDraft {
  const { path: _path, groupId: _groupId, sceneId: _sceneId, ...draft } = widget;
  return draft;
}

const numberText = (value: number | undefined) => (value === undefined || !Number.isFinite(value) ? '' : String(value));

let nextRowKey = 1;
export const rowKey = () => nextRowKey++;

export function formOfDraft(draft: WidgetDraft): WidgetForm {
  return {
    draft,
    channels: draft.channels.map((channel) => ({
      deviceId: channel.deviceId,
      code: channel.code,
      ...(channel.name !== undefined ? { name: channel.name } : {}),
      legendVisibility: channel.legendVisibility ?? true,
    })),
    min: numberText(draft.min),
    max: numberText(draft.max),
    increment: numberText(draft.increment),
    arcSegments: sortArcSegments(draft.arcSegments).map((segment) => ({
      key: rowKey(),
      endValue: numberText(segment.endValue),
      color: segment.color,
      text: segment.text ?? '',
    })),
  };
}

/** A number typed in a field, or null when the text is not one (blank included). */
export function parseNumber(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : null;
}

/** Arc segments in ascending end value (§9: they are drawn from the lowest). */
export function sortArcSegments<T extends Pick<ArcSegment, 'endValue'>>(segments: readonly T[]): T[] {
  return [...segments].sort((a, b) => a.endValue - b.endValue);
}

export function validateWidgetForm(form: WidgetForm, type: FormType): WidgetFormErrors {
  const errors: WidgetFormErrors = {};
  const has = (section: EditorSection) => type.sections.includes(section);
  const { draft } = form;
  const inherits = draft.doesInheritName && has('channels') && type.maxChannels > 0;

  const name = draft.name.trim();
  if (!inherits && name === '') errors.name = 'Enter a name for the widget.';
  else if (name.length > NAME_MAX) errors.name = `Use at most ${NAME_MAX} characters.`;

  if (has('channels') && type.maxChannels > 0) {
    if (form.channels.length === 0) errors.channels = 'Choose a channel.';
    else if (form.channels.length > type.maxChannels) {
      errors.channels = `This widget shows at most ${type.maxChannels} channel${type.maxChannels === 1 ? '' : 's'}.`;
    }
    const rowErrors = form.channels.map((row): string | undefined => {
      if (row.deviceId === '') return 'Choose a device.';
      if (row.code === '') return 'Choose a channel of this device.';
      if (normaliseChannelCode(row.code) === null) return 'Not a channel code (a1, c2, sp-3…).';
      return undefined;
    });
    const seen = new Set<string>();
    form.channels.forEach((row, index) => {
      const key = `${row.deviceId}:${row.code}`;
      if (row.code !== '' && seen.has(key)) rowErrors[index] ??= 'This channel is already chosen.';
      seen.add(key);
    });
    if (rowErrors.some(Boolean)) errors.channelRows = rowErrors;
  }

  if (has('range')) {
    const min = parseNumber(form.min);
    const max = parseNumber(form.max);
    if (min === null) errors.min = 'Enter a number.';
    if (max === null) errors.max = 'Enter a number.';
    else if (min !== null) {
      const problem = widgetProblem({ min, max, yAxis: [] });
      if (problem) errors.max = problem;
    }
  }

  if (has('increment') && form.increment.trim() !== '') {
    const increment = parseNumber(form.increment);
    if (increment === null) errors.increment = 'Enter a number.';
    else if (increment <= 0) errors.increment = 'Increment must be greater than 0.';
  }

  if (has('arcSegments')) {
    const rowErrors = form.arcSegments.map((row): string | undefined => {
      if (parseNumber(row.endValue) === null) return 'Enter the end value.';
      if (row.color.trim() === '') return 'Choose a colour.';
      return undefined;
    });
    if (form.arcSegments.length > ARC_SEGMENTS_MAX)
      rowErrors[ARC_SEGMENTS_MAX] = `At most ${ARC_SEGMENTS_MAX} segments.`;
    if (rowErrors.some(Boolean)) errors.arcSegments = rowErrors;
  }

  if (has('units') && (draft.units ?? '').trim().length > UNITS_MAX)
    errors.units = `Use at most ${UNITS_MAX} characters.`;
  if (has('text') && typeof draft.value === 'string' && draft.value.length > TEXT_MAX) {
    errors.text = `Use at most ${TEXT_MAX.toLocaleString('en')} characters.`;
  }
  const colours = [draft.color, draft.backgroundColor, draft.activeColor, draft.inactiveColor];
  if (colours.some((colour) => (colour ?? '').length > COLOUR_MAX)) errors.colours = 'A colour is too long.';
  return errors;
}

export function hasErrors(errors: WidgetFormErrors): boolean {
  return Object.values(errors).some((value) => (Array.isArray(value) ? value.some(Boolean) : Boolean(value)));
}

/** The draft to save: numbers parsed, arc segments sorted, optional texts left out when blank. */
export function draftOfForm(form: WidgetForm, type: FormType): WidgetDraft {
  const has = (section: EditorSection) => type.sections.includes(section);
  const draft: WidgetDraft = {
    ...form.draft,
    name: form.draft.name.trim(),
    channels: form.channels
      .filter((row) => row.deviceId !== '' && row.code !== '')
      .map((row) => ({
        deviceId: row.deviceId,
        code: row.code,
        ...(row.name?.trim() ? { name: row.name.trim() } : {}),
        legendVisibility: row.legendVisibility,
      })),
  };
  if (has('range')) {
    draft.min = parseNumber(form.min) ?? draft.min;
    draft.max = parseNumber(form.max) ?? draft.max;
  }
  if (has('increment')) {
    const increment = parseNumber(form.increment);
    if (increment !== null && increment > 0) draft.increment = increment;
    else delete draft.increment;
  }
  if (has('arcSegments')) {
    draft.arcSegments = sortArcSegments(
      form.arcSegments.map((row) => ({
        endValue: parseNumber(row.endValue) ?? 0,
        color: row.color.trim(),
        ...(row.text.trim() ? { text: row.text.trim() } : {}),
      })),
    );
  }
  if (has('units')) {
    const units = (draft.units ?? '').trim();
    if (units) draft.units = units;
    else delete draft.units;
  }
  // An inheriting widget with no name of its own is saved under its type's label, so it still has
  // one if its channel goes away.
  if (draft.doesInheritName && draft.name === '') draft.name = type.label;
  return draft;
}
