import type { FormEvent } from 'react';
import type { Account } from '@fieldlink/api/account';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { InlineAlert } from '../../../components/ui/inline-alert';
import { TextField } from '../../../components/ui/text-field';
import { useDialogAction } from '../hooks/use-dialog-action';
import { useWidgetForm } from '../hooks/use-widget-form';
import type { DeviceIndex } from '../model/resolve-channels';
import { NAME_MAX, UNITS_MAX } from '../model/widget-form';
import { AnnotationsEditor, YAxisEditor } from '../widgets/chart/chart-editors';
import type { WidgetDefinition, WidgetDraft } from '../widgets/widget-definition';
import { Checkbox, ColourField, EditorSection, FieldError, NumberField, TextArea } from './widget-editor-fields';
import { ArcSegmentsSection, ChannelsSection } from './widget-editor-sections';

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
  const {
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
    ready,
  } = useWidgetForm(definition, initialDraft, devices);
  const { busy, serverError, run } = useDialogAction(onClose);
  const isNew = !initialDraft.id;
  const TypeEditor = definition.Editor;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const draft = ready();
    if (!draft || busy) return;
    await run(() => onSave(draft));
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
