import { useMemo, useState } from 'react';
import { deviceChannelName, type DeviceIndex } from '../model/resolve-channels';
import {
  draftOfForm,
  formOfDraft,
  hasErrors,
  validateWidgetForm,
  type WidgetForm,
  type WidgetFormErrors,
} from '../model/widget-form';
import type { WidgetDefinition, WidgetDraft, WidgetEditorProps } from '../widgets/widget-definition';

/**
 * The widget editor's form state: the fields, which were touched, whether saving was tried, and the
 * problems of `model/widget-form` (shown beside a field once it is touched, all after a save attempt).
 */
export function useWidgetForm(definition: WidgetDefinition, initialDraft: WidgetDraft, devices: DeviceIndex) {
  const [form, setForm] = useState<WidgetForm>(() => {
    const initial = formOfDraft(initialDraft);
    // A one-channel widget starts with its (empty) channel row, so the device choice is right there.
    if (definition.sections.includes('channels') && definition.maxChannels > 0 && initial.channels.length === 0) {
      initial.channels = [{ deviceId: '', code: '', legendVisibility: true }];
    }
    return initial;
  });
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const [attempted, setAttempted] = useState(false);
  const errors = useMemo(() => validateWidgetForm(form, definition), [form, definition]);
  const invalid = hasErrors(errors);
  const shown = (field: string) => attempted || touched.has(field);
  const touch = (field: string) => setTouched((set) => (set.has(field) ? set : new Set(set).add(field)));
  const has = (section: WidgetDefinition['sections'][number]) => definition.sections.includes(section);
  const setDraft = (patch: Partial<WidgetDraft>) => setForm((f) => ({ ...f, draft: { ...f.draft, ...patch } }));
  const inherits = form.draft.doesInheritName && has('channels') && definition.maxChannels > 0;
  const firstChannel = form.channels[0];
  const inheritedName =
    firstChannel && firstChannel.code !== ''
      ? firstChannel.name?.trim() || deviceChannelName(devices.get(firstChannel.deviceId)?.device, firstChannel.code)
      : '';
  const firstProblem = firstError(errors);
  // Type editors see the channels as chosen so far, and change everything but them.
  const typeEditorProps: WidgetEditorProps = {
    draft: { ...form.draft, channels: draftOfForm(form, definition).channels },
    onChange: (draft) => setForm((f) => ({ ...f, draft: { ...draft, channels: f.draft.channels } })),
  };

  return {
    form,
    setForm,
    setDraft,
    errors,
    invalid,
    shown,
    touch,
    has,
    inherits,
    inheritedName,
    firstProblem,
    typeEditorProps,
    /** The draft to save, or null (every problem shown) while the form has any. */
    ready: (): WidgetDraft | null => {
      setAttempted(true);
      return invalid ? null : draftOfForm(form, definition);
    },
  };
}

/** The first problem of the form, in the order of its sections, for the line beside Save. */
function firstError(errors: WidgetFormErrors): string | undefined {
  const fromRows = (rows: (string | undefined)[] | undefined) => rows?.find(Boolean);
  return (
    errors.name ??
    errors.channels ??
    fromRows(errors.channelRows) ??
    errors.min ??
    errors.max ??
    fromRows(errors.arcSegments) ??
    errors.colours ??
    errors.units ??
    errors.increment ??
    errors.text
  );
}
