import { useId, useMemo, useState, type FormEvent, type ReactNode } from 'react';
import type { Account } from '@fieldlink/api/account';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { CloseIcon, PlusIcon } from '../../../components/ui/icons';
import { InlineAlert } from '../../../components/ui/inline-alert';
import { TextField } from '../../../components/ui/text-field';
import { groupTrail, listDevices } from '../../../lib/account-tree';
import { useDialogAction } from '../hooks/use-dialog-action';
import { deviceChannelName, type DeviceIndex } from '../model/resolve-channels';
import {
  ARC_SEGMENTS_MAX,
  COLOUR_MAX,
  draftOfForm,
  formOfDraft,
  hasErrors,
  NAME_MAX,
  parseNumber,
  rowKey,
  UNITS_MAX,
  validateWidgetForm,
  type ChannelRow,
  type WidgetForm,
  type WidgetFormErrors,
} from '../model/widget-form';
import { AnnotationsEditor, YAxisEditor } from '../widgets/chart/chart-editors';
import type { WidgetDefinition, WidgetDraft, WidgetEditorProps } from '../widgets/widget-definition';

export interface WidgetEditorDialogProps {
  definition: WidgetDefinition;
  /** The widget's draft: a new widget's defaults, or a stored widget's fields (with its id). */
  initialDraft: WidgetDraft;
  accounts: readonly Account[];
  /** The scene's account: its devices are offered. */
  accountId: string;
  devices: DeviceIndex;
  onSave: (draft: WidgetDraft) => Promise<unknown>;
  onClose: () => void;
}

/**
 * The widget editor: name, then the shared sections the type asks for (channels, range, arc
 * segments, colours, switch colours, units, increment, text), then the type's own editor. Problems
 * are shown beside their field once it is touched (all of them after a save attempt); Save stays
 * disabled while any remains; the server's refusal is shown above the buttons.
 */
export function WidgetEditorDialog({
  definition,
  initialDraft,
  accounts,
  accountId,
  devices,
  onSave,
  onClose,
}: WidgetEditorDialogProps) {
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
  const { busy, serverError, run } = useDialogAction(onClose);
  const errors = useMemo(() => validateWidgetForm(form, definition), [form, definition]);
  const invalid = hasErrors(errors);
  const shown = (field: string) => attempted || touched.has(field);
  const touch = (field: string) => setTouched((set) => (set.has(field) ? set : new Set(set).add(field)));
  const isNew = !initialDraft.id;
  const has = (section: WidgetDefinition['sections'][number]) => definition.sections.includes(section);
  const setDraft = (patch: Partial<WidgetDraft>) => setForm((f) => ({ ...f, draft: { ...f.draft, ...patch } }));
  const TypeEditor = definition.Editor;
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

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setAttempted(true);
    if (invalid || busy) return;
    await run(() => onSave(draftOfForm(form, definition)));
  };

  return (
    <Dialog
      title={`${isNew ? 'Add' : 'Edit'} ${definition.label.toLowerCase()}`}
      description={definition.description}
      size="lg"
      onClose={onClose}
      footer={
        <>
          {invalid && !serverError && (
            <span className="widget-editor__footer-note" data-testid="widget-editor-problem">
              {firstProblem}
            </span>
          )}
          {serverError && (
            <div className="widget-editor__server-error">
              <InlineAlert tone="error">{serverError}</InlineAlert>
            </div>
          )}
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button
            variant="primary"
            type="submit"
            form="widget-editor-form"
            busy={busy}
            disabled={invalid}
            data-testid="widget-editor-save"
          >
            {isNew ? 'Add widget' : 'Save'}
          </Button>
        </>
      }
    >
      <form id="widget-editor-form" className="widget-editor" onSubmit={submit} noValidate data-testid="widget-editor">
        <EditorSection title="Name">
          <TextField
            label="Widget name"
            name="name"
            data-testid="widget-name"
            value={inherits ? inheritedName : form.draft.name}
            disabled={inherits}
            maxLength={NAME_MAX}
            autoComplete="off"
            placeholder={inherits ? 'Taken from the channel' : undefined}
            aria-invalid={shown('name') && errors.name ? true : undefined}
            hint={shown('name') && errors.name ? <FieldError>{errors.name}</FieldError> : undefined}
            onChange={(event) => setDraft({ name: event.target.value })}
            onBlur={() => touch('name')}
          />
          {has('channels') && definition.maxChannels > 0 && (
            <Checkbox
              label="Inherit name from channel"
              testId="widget-inherit-name"
              checked={form.draft.doesInheritName}
              onChange={(doesInheritName) => setDraft({ doesInheritName })}
            />
          )}
        </EditorSection>

        {has('channels') && definition.maxChannels > 0 && (
          <ChannelsSection
            rows={form.channels}
            max={definition.maxChannels}
            showLegend={definition.type === 'chart'}
            accounts={accounts}
            accountId={accountId}
            devices={devices}
            errors={errors}
            shown={shown}
            touch={touch}
            onChange={(channels) => setForm((f) => ({ ...f, channels }))}
          />
        )}

        {has('range') && (
          <EditorSection title="Range">
            <div className="widget-editor__pair">
              <NumberField
                label="Minimum"
                testId="widget-min"
                value={form.min}
                error={shown('min') ? errors.min : undefined}
                onChange={(min) => setForm((f) => ({ ...f, min }))}
                onBlur={() => touch('min')}
              />
              <NumberField
                label="Maximum"
                testId="widget-max"
                value={form.max}
                error={shown('max') || shown('min') ? errors.max : undefined}
                onChange={(max) => setForm((f) => ({ ...f, max }))}
                onBlur={() => touch('max')}
              />
            </div>
          </EditorSection>
        )}

        {has('arcSegments') && (
          <ArcSegmentsSection form={form} errors={errors} shown={shown} touch={touch} setForm={setForm} />
        )}

        {has('colours') && (
          <EditorSection title="Colours">
            <div className="widget-editor__pair">
              <ColourField
                label="Colour"
                testId="widget-color"
                value={form.draft.color ?? ''}
                onChange={(color) => setDraft({ color })}
              />
              <ColourField
                label="Background colour"
                testId="widget-background-color"
                value={form.draft.backgroundColor ?? ''}
                onChange={(backgroundColor) => setDraft({ backgroundColor })}
              />
            </div>
            {errors.colours && <FieldError>{errors.colours}</FieldError>}
          </EditorSection>
        )}

        {has('switchColours') && (
          <EditorSection title="Switch colours">
            <Checkbox
              label="Colour the widget by its state"
              testId="widget-switch-colors"
              checked={form.draft.switchColors}
              onChange={(switchColors) => setDraft({ switchColors })}
            />
            {form.draft.switchColors && (
              <div className="widget-editor__pair">
                <ColourField
                  label="Active colour"
                  testId="widget-active-color"
                  value={form.draft.activeColor}
                  onChange={(activeColor) => setDraft({ activeColor })}
                />
                <ColourField
                  label="Inactive colour"
                  testId="widget-inactive-color"
                  value={form.draft.inactiveColor}
                  onChange={(inactiveColor) => setDraft({ inactiveColor })}
                />
              </div>
            )}
          </EditorSection>
        )}

        {(has('units') || has('increment')) && (
          <EditorSection title={has('units') && has('increment') ? 'Units and step' : has('units') ? 'Units' : 'Step'}>
            <div className="widget-editor__pair">
              {has('units') && (
                <TextField
                  label="Units"
                  name="units"
                  data-testid="widget-units"
                  value={form.draft.units ?? ''}
                  placeholder="°C, bar, L/min…"
                  maxLength={UNITS_MAX}
                  autoComplete="off"
                  aria-invalid={errors.units ? true : undefined}
                  hint={errors.units ? <FieldError>{errors.units}</FieldError> : undefined}
                  onChange={(event) => setDraft({ units: event.target.value })}
                />
              )}
              {has('increment') && (
                <NumberField
                  label="Increment"
                  testId="widget-increment"
                  value={form.increment}
                  placeholder="1"
                  hint="How much one press or step changes the value."
                  error={shown('increment') ? errors.increment : undefined}
                  onChange={(increment) => setForm((f) => ({ ...f, increment }))}
                  onBlur={() => touch('increment')}
                />
              )}
            </div>
          </EditorSection>
        )}

        {has('text') && (
          <EditorSection title="Text">
            <TextArea
              label="Text"
              testId="widget-text"
              value={typeof form.draft.value === 'string' ? form.draft.value : ''}
              error={errors.text}
              onChange={(value) => setDraft({ value })}
            />
          </EditorSection>
        )}

        {has('yAxis') && (
          <EditorSection title="Y axes">
            <YAxisEditor {...typeEditorProps} />
          </EditorSection>
        )}

        {has('annotations') && (
          <EditorSection title="Annotations">
            <AnnotationsEditor {...typeEditorProps} />
          </EditorSection>
        )}

        {has('confirmation') && (
          <EditorSection title="Confirmation">
            <Checkbox
              label="No confirmation"
              testId="widget-no-confirmation"
              checked={form.draft.noConfirmation === true}
              onChange={(noConfirmation) => setDraft({ noConfirmation })}
            />
            <p className="widget-editor__hint">
              Commands from this widget go to the device at once, without asking first. Only for outputs that are safe
              to toggle. Generated plant dashboards always ask.
            </p>
          </EditorSection>
        )}

        {TypeEditor && (
          <EditorSection title={`${definition.label} settings`}>
            <TypeEditor {...typeEditorProps} />
          </EditorSection>
        )}
      </form>
    </Dialog>
  );
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

function EditorSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="widget-editor__section">
      <legend className="widget-editor__legend">{title}</legend>
      {children}
    </fieldset>
  );
}

function FieldError({ children }: { children: ReactNode }) {
  return <span className="scene-form__error">{children}</span>;
}

function Checkbox({
  label,
  testId,
  checked,
  onChange,
}: {
  label: string;
  testId?: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  return (
    <label className="widget-editor__check">
      <input
        type="checkbox"
        data-testid={testId}
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
      />
      <span>{label}</span>
    </label>
  );
}

function NumberField({
  label,
  testId,
  value,
  error,
  hint,
  placeholder,
  onChange,
  onBlur,
}: {
  label: string;
  testId: string;
  value: string;
  error?: string | undefined;
  hint?: string;
  placeholder?: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
}) {
  return (
    <TextField
      label={label}
      data-testid={testId}
      inputMode="decimal"
      autoComplete="off"
      value={value}
      placeholder={placeholder}
      aria-invalid={error ? true : undefined}
      hint={error ? <FieldError>{error}</FieldError> : hint}
      onChange={(event) => onChange(event.target.value)}
      onBlur={onBlur}
    />
  );
}

function TextArea({
  label,
  testId,
  value,
  error,
  onChange,
}: {
  label: string;
  testId: string;
  value: string;
  error?: string | undefined;
  onChange: (value: string) => void;
}) {
  const id = useId();
  return (
    <div className="fl-field">
      <label className="fl-field__label" htmlFor={id}>
        {label}
      </label>
      <textarea
        id={id}
        className="fl-input widget-editor__textarea"
        data-testid={testId}
        rows={4}
        value={value}
        aria-invalid={error ? true : undefined}
        onChange={(event) => onChange(event.target.value)}
      />
      {error && (
        <span className="fl-field__hint">
          <FieldError>{error}</FieldError>
        </span>
      )}
    </div>
  );
}

/** Named colours the specification's defaults use, for the colour swatch (which takes #rrggbb). */
const NAMED_COLOURS: Record<string, string> = {
  red: '#ff0000',
  grey: '#808080',
  gray: '#808080',
  green: '#008000',
  blue: '#0000ff',
  orange: '#ffa500',
  yellow: '#ffff00',
  black: '#000000',
  white: '#ffffff',
};

function swatchOf(value: string): string {
  const text = value.trim().toLowerCase();
  if (/^#[0-9a-f]{6}$/.test(text)) return text;
  if (/^#[0-9a-f]{3}$/.test(text)) return `#${[...text.slice(1)].map((c) => c + c).join('')}`;
  return NAMED_COLOURS[text] ?? '#000000';
}

/** A CSS colour: a swatch to pick one, and the text for any CSS colour (`red`, `#CA9D43`). */
function ColourField({
  label,
  testId,
  value,
  onChange,
}: {
  label: string;
  testId: string;
  value: string;
  onChange: (value: string) => void;
}) {
  const id = useId();
  return (
    <div className="fl-field">
      <label className="fl-field__label" htmlFor={id}>
        {label}
      </label>
      <div className="widget-editor__colour">
        <input
          type="color"
          className={`widget-editor__swatch${value.trim() === '' ? ' is-default' : ''}`}
          aria-label={`${label} swatch`}
          value={swatchOf(value)}
          onChange={(event) => onChange(event.target.value)}
        />
        <input
          id={id}
          className="fl-input"
          data-testid={testId}
          value={value}
          placeholder="Default"
          autoComplete="off"
          maxLength={COLOUR_MAX}
          onChange={(event) => onChange(event.target.value)}
        />
      </div>
    </div>
  );
}

function ChannelsSection({
  rows,
  max,
  showLegend,
  accounts,
  accountId,
  devices,
  errors,
  shown,
  touch,
  onChange,
}: {
  rows: ChannelRow[];
  max: number;
  showLegend: boolean;
  accounts: readonly Account[];
  accountId: string;
  devices: DeviceIndex;
  errors: WidgetFormErrors;
  shown: (field: string) => boolean;
  touch: (field: string) => void;
  onChange: (rows: ChannelRow[]) => void;
}) {
  // The scene account's devices, grouped by where they sit in the tree, for the device choice.
  const groups = useMemo(() => {
    const byGroup = new Map<string, { label: string; devices: { id: string; name: string; thingName: string }[] }>();
    for (const placed of listDevices(accounts)) {
      if (placed.group.accountId !== accountId) continue;
      const key = `${placed.account.id}/${placed.group.id}`;
      let entry = byGroup.get(key);
      if (!entry) {
        entry = { label: groupTrail(placed.account, placed.group.id).join(' / '), devices: [] };
        byGroup.set(key, entry);
      }
      entry.devices.push({ id: placed.device.id, name: placed.device.name, thingName: placed.device.thingName });
    }
    return [...byGroup.values()];
  }, [accounts, accountId]);
  const update = (index: number, patch: Partial<ChannelRow>) =>
    onChange(rows.map((row, i) => (i === index ? { ...row, ...patch } : row)));

  return (
    <EditorSection title={max === 1 ? 'Channel' : `Channels (up to ${max})`}>
      <ul className="widget-editor__rows" data-testid="widget-channels">
        {rows.map((row, index) => {
          const placed = devices.get(row.deviceId);
          const channels = placed?.device.channels ?? [];
          const rowError = shown(`channel-${index}`) ? errors.channelRows?.[index] : undefined;
          return (
            <li key={index} className="widget-editor__row" data-testid="widget-channel-row">
              <div className="widget-editor__channel">
                <label className="fl-field">
                  <span className="fl-field__label">Device</span>
                  <select
                    className="fl-select"
                    data-testid="widget-channel-device"
                    value={row.deviceId}
                    aria-invalid={rowError && row.deviceId === '' ? true : undefined}
                    onChange={(event) => {
                      update(index, { deviceId: event.target.value, code: '' });
                      touch(`channel-${index}`);
                    }}
                  >
                    <option value="">Choose a device…</option>
                    {row.deviceId !== '' && !placed && <option value={row.deviceId}>Unavailable device</option>}
                    {groups.map((group) => (
                      <optgroup key={group.label} label={group.label}>
                        {group.devices.map((device) => (
                          <option key={device.id} value={device.id}>
                            {device.name} ({device.thingName})
                          </option>
                        ))}
                      </optgroup>
                    ))}
                  </select>
                </label>
                {channels.length > 0 || row.deviceId === '' ? (
                  <label className="fl-field">
                    <span className="fl-field__label">Channel</span>
                    <select
                      className="fl-select"
                      data-testid="widget-channel-code"
                      value={row.code}
                      disabled={row.deviceId === ''}
                      aria-invalid={rowError && row.deviceId !== '' ? true : undefined}
                      onChange={(event) => {
                        update(index, { code: event.target.value });
                        touch(`channel-${index}`);
                      }}
                    >
                      <option value="">Choose a channel…</option>
                      {row.code !== '' && !channels.some((channel) => channel.code === row.code) && (
                        <option value={row.code}>{row.code}</option>
                      )}
                      {channels.map((channel) => (
                        <option key={channel.code} value={channel.code}>
                          {deviceChannelName(placed?.device, channel.code)} ({channel.code})
                        </option>
                      ))}
                    </select>
                  </label>
                ) : (
                  <TextField
                    label="Channel code"
                    data-testid="widget-channel-code"
                    value={row.code}
                    placeholder="a1, c2, sp-3…"
                    autoComplete="off"
                    onChange={(event) => update(index, { code: event.target.value.trim() })}
                    onBlur={() => touch(`channel-${index}`)}
                  />
                )}
                {(rows.length > 1 || max > 1) && (
                  <button
                    type="button"
                    className="widget-editor__remove"
                    aria-label={`Remove channel ${index + 1}`}
                    onClick={() => onChange(rows.filter((_, i) => i !== index))}
                  >
                    <CloseIcon size={16} />
                  </button>
                )}
              </div>
              {showLegend && (
                <Checkbox
                  label="Show in legend"
                  checked={row.legendVisibility}
                  onChange={(legendVisibility) => update(index, { legendVisibility })}
                />
              )}
              {rowError && <FieldError>{rowError}</FieldError>}
            </li>
          );
        })}
      </ul>
      {shown('channels') || rows.length === 0 ? errors.channels && <FieldError>{errors.channels}</FieldError> : null}
      {rows.length < max && (
        <Button
          size="sm"
          variant="ghost"
          data-testid="widget-add-channel"
          onClick={() => {
            onChange([...rows, { deviceId: rows.at(-1)?.deviceId ?? '', code: '', legendVisibility: true }]);
            touch('channels');
          }}
        >
          <PlusIcon size={15} />
          Add channel
        </Button>
      )}
    </EditorSection>
  );
}

function ArcSegmentsSection({
  form,
  errors,
  shown,
  touch,
  setForm,
}: {
  form: WidgetForm;
  errors: WidgetFormErrors;
  shown: (field: string) => boolean;
  touch: (field: string) => void;
  setForm: (update: (form: WidgetForm) => WidgetForm) => void;
}) {
  const update = (key: number, patch: Partial<WidgetForm['arcSegments'][number]>) =>
    setForm((f) => ({ ...f, arcSegments: f.arcSegments.map((row) => (row.key === key ? { ...row, ...patch } : row)) }));
  // Rows are put in end-value order when an end value is left, so the list reads as the arc does.
  const sort = () =>
    setForm((f) => ({
      ...f,
      arcSegments: [...f.arcSegments].sort(
        (a, b) => (parseNumber(a.endValue) ?? Infinity) - (parseNumber(b.endValue) ?? Infinity),
      ),
    }));
  return (
    <EditorSection title="Arc segments">
      <p className="widget-editor__note">
        Each segment colours the arc up to its end value, from the lowest. Without segments the arc takes the widget’s
        colour.
      </p>
      {form.arcSegments.length > 0 && (
        <ul className="widget-editor__rows" data-testid="widget-arc-segments">
          {form.arcSegments.map((row, index) => {
            const rowError = shown(`arc-${row.key}`) ? errors.arcSegments?.[index] : undefined;
            return (
              <li key={row.key} className="widget-editor__row" data-testid="widget-arc-segment">
                <div className="widget-editor__arc">
                  <NumberField
                    label="End value"
                    testId="widget-arc-end"
                    value={row.endValue}
                    onChange={(endValue) => update(row.key, { endValue })}
                    onBlur={() => {
                      touch(`arc-${row.key}`);
                      sort();
                    }}
                  />
                  <ColourField
                    label="Colour"
                    testId="widget-arc-color"
                    value={row.color}
                    onChange={(color) => update(row.key, { color })}
                  />
                  <TextField
                    label="Text"
                    data-testid="widget-arc-text"
                    value={row.text}
                    maxLength={60}
                    autoComplete="off"
                    placeholder="Optional"
                    onChange={(event) => update(row.key, { text: event.target.value })}
                  />
                  <button
                    type="button"
                    className="widget-editor__remove"
                    aria-label={`Remove segment ${index + 1}`}
                    onClick={() =>
                      setForm((f) => ({ ...f, arcSegments: f.arcSegments.filter((r) => r.key !== row.key) }))
                    }
                  >
                    <CloseIcon size={16} />
                  </button>
                </div>
                {rowError && <FieldError>{rowError}</FieldError>}
              </li>
            );
          })}
        </ul>
      )}
      {form.arcSegments.length < ARC_SEGMENTS_MAX && (
        <Button
          size="sm"
          variant="ghost"
          data-testid="widget-add-arc-segment"
          onClick={() =>
            setForm((f) => ({
              ...f,
              arcSegments: [
                ...f.arcSegments,
                { key: rowKey(), endValue: f.max, color: f.arcSegments.length === 0 ? '#067647' : '#d92d20', text: '' },
              ],
            }))
          }
        >
          <PlusIcon size={15} />
          Add segment
        </Button>
      )}
    </EditorSection>
  );
}
