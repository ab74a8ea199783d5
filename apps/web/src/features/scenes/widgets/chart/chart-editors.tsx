import { useId, useMemo, useState } from 'react';
import type { Annotation, YAxis } from '@fieldlink/api/scenes';
import { chartColour, fixedAxisRange, widgetChannelKey } from '@fieldlink/domain/chart';
import { PLOT_LINE_COLOR } from '@fieldlink/domain/widgets';
import { Button } from '../../../../components/ui/button';
import { PlusIcon, TrashIcon } from '../../../../components/ui/icons';
import { SelectField } from '../../../../components/ui/select-field';
import { TextField } from '../../../../components/ui/text-field';
import { useAccount } from '../../../../lib/api/get-account';
import { dateTimeInputValue, formatDateTime, instantOfDateTimeInput } from '@fieldlink/domain/date-format';
import { usePageClock } from '../../../../lib/page-time-zone';
import { indexDevices, resolveChannels } from '../../model/resolve-channels';
import { parseNumber } from '../../model/widget-form';
import type { WidgetEditorProps } from '../widget-definition';
import { channelLabel, spansDevices } from './chart-model';
import './chart-editors.css';

/** The draft's channels with their names, keyed `{deviceId}:{code}` as y axes name them. */
function useDraftChannels(draft: WidgetEditorProps['draft']) {
  const account = useAccount();
  // The tree is indexed once, not again on every keystroke of the editor.
  const devices = useMemo(() => indexDevices(account.data?.accounts ?? []), [account.data]);
  return useMemo(() => {
    const resolved = resolveChannels(draft, devices);
    const many = spansDevices(resolved);
    return resolved.map((channel, index) => ({
      key: widgetChannelKey(channel.deviceId, channel.code),
      deviceId: channel.deviceId,
      code: channel.code,
      label: channelLabel(channel, many),
      colour: chartColour(index),
    }));
  }, [draft, devices]);
}

const NEW_AXIS: YAxis = { channels: [], name: '', units: '', isDedicated: false, hasFixRange: false };

/** A number input's value, or undefined (no bound) while it is empty or not a number. */
const axisBound = (text: string) => parseNumber(text) ?? undefined;

/**
 * The y axes of a chart widget (§3 yAxis): name, units, the channels each carries, dedicated (its own
 * scale, on the other side) or shared, and a fixed range or one from the data.
 */
export function YAxisEditor({ draft, onChange }: WidgetEditorProps) {
  const channels = useDraftChannels(draft);
  const axes = draft.yAxis;
  const update = (index: number, patch: Partial<YAxis>) =>
    onChange({ ...draft, yAxis: axes.map((axis, i) => (i === index ? { ...axis, ...patch } : axis)) });
  const remove = (index: number) => onChange({ ...draft, yAxis: axes.filter((_, i) => i !== index) });
  const add = () =>
    onChange({ ...draft, yAxis: [...axes, { ...NEW_AXIS, name: axes.length === 0 ? '' : `Axis ${axes.length + 1}` }] });

  return (
    <div className="chart-editor" data-testid="y-axis-editor">
      {axes.length === 0 && (
        <p className="chart-editor__hint">
          Every channel shares one axis scaled to its data. Add an axis to name it, give it units or a fixed range.
        </p>
      )}
      {axes.map((axis, index) => (
        <AxisCard
          key={index}
          index={index}
          axis={axis}
          channels={channels}
          onChange={(patch) => update(index, patch)}
          onRemove={() => remove(index)}
        />
      ))}
      <Button size="sm" onClick={add} disabled={axes.length >= 8}>
        <PlusIcon size={15} /> Add axis
      </Button>
    </div>
  );
}

function AxisCard({
  index,
  axis,
  channels,
  onChange,
  onRemove,
}: {
  index: number;
  axis: YAxis;
  channels: readonly { key: string; label: string; colour: string }[];
  onChange: (patch: Partial<YAxis>) => void;
  onRemove: () => void;
}) {
  const id = useId();
  const rangeInvalid = axis.hasFixRange && fixedAxisRange(axis) === null;
  return (
    <fieldset className="chart-editor__card">
      <legend className="chart-editor__card-title">
        Axis {index + 1}
        <Button size="sm" variant="ghost" onClick={onRemove} aria-label={`Remove axis ${index + 1}`}>
          <TrashIcon size={15} />
        </Button>
      </legend>
      <div className="chart-editor__row">
        <TextField
          label="Name"
          value={axis.name}
          maxLength={120}
          onChange={(e) => onChange({ name: e.target.value })}
        />
        <TextField
          label="Units"
          value={axis.units}
          maxLength={20}
          placeholder="°C, bar, L/min"
          onChange={(e) => onChange({ units: e.target.value })}
        />
      </div>
      <div className="chart-editor__group" role="group" aria-labelledby={`${id}-channels`}>
        <span id={`${id}-channels`} className="fl-field__label">
          Channels on this axis
        </span>
        {channels.length === 0 && <span className="chart-editor__hint">Choose the widget's channels first.</span>}
        <div className="chart-editor__checks">
          {channels.map((channel) => (
            <label key={channel.key} className="chart-editor__check">
              <input
                type="checkbox"
                checked={axis.channels.includes(channel.key)}
                onChange={(e) =>
                  onChange({
                    channels: e.target.checked
                      ? [...axis.channels, channel.key]
                      : axis.channels.filter((key) => key !== channel.key),
                  })
                }
              />
              <span className="chart-editor__swatch" style={{ background: channel.colour }} aria-hidden="true" />
              {channel.label}
            </label>
          ))}
        </div>
      </div>
      <label className="chart-editor__check">
        <input
          type="checkbox"
          checked={axis.isDedicated}
          onChange={(e) => onChange({ isDedicated: e.target.checked })}
        />
        Dedicated axis: its own scale, drawn on the other side
      </label>
      <label className="chart-editor__check">
        <input
          type="checkbox"
          checked={axis.hasFixRange}
          onChange={(e) => onChange({ hasFixRange: e.target.checked })}
        />
        Fixed range
      </label>
      {axis.hasFixRange && (
        <div className="chart-editor__row">
          <TextField
            label="Minimum"
            type="number"
            inputMode="decimal"
            value={axis.min ?? ''}
            aria-invalid={rangeInvalid}
            onChange={(e) => onChange({ min: axisBound(e.target.value) })}
          />
          <TextField
            label="Maximum"
            type="number"
            inputMode="decimal"
            value={axis.max ?? ''}
            aria-invalid={rangeInvalid}
            hint={
              rangeInvalid ? 'The minimum must be below the maximum; until then the range follows the data.' : undefined
            }
            onChange={(e) => onChange({ max: axisBound(e.target.value) })}
          />
        </div>
      )}
    </fieldset>
  );
}

/**
 * The annotations of a chart widget: plot lines (a vertical line at a time, with text, in a colour;
 * #CA9D43 by default) and channel notes, listed by time; each can be removed.
 */
export function AnnotationsEditor({ draft, onChange }: WidgetEditorProps) {
  const clock = usePageClock();
  const id = useId();
  const channels = useDraftChannels(draft);
  const [at, setAt] = useState(() => dateTimeInputValue(Date.now(), clock.timeZone));
  const [text, setText] = useState('');
  const [colour, setColour] = useState<string>(PLOT_LINE_COLOR);
  const [target, setTarget] = useState('');
  const when = instantOfDateTimeInput(at, clock.timeZone);
  const valid = when !== null && text.trim() !== '';

  const add = () => {
    if (!valid) return;
    const channel = channels.find((c) => c.key === target);
    const annotation: Annotation = channel
      ? {
          kind: 'channel',
          text: text.trim(),
          timestamp: when,
          color: colour,
          channel: { deviceId: channel.deviceId, code: channel.code },
        }
      : { kind: 'plotLine', text: text.trim(), timestamp: when, color: colour };
    onChange({ ...draft, annotations: [...draft.annotations, annotation].sort((a, b) => a.timestamp - b.timestamp) });
    setText('');
  };
  const remove = (index: number) =>
    onChange({ ...draft, annotations: draft.annotations.filter((_, i) => i !== index) });

  return (
    <div className="chart-editor" data-testid="annotations-editor">
      <div className="chart-editor__row chart-editor__row--add">
        <TextField
          label="Time"
          type="datetime-local"
          value={at}
          onChange={(e) => setAt(e.target.value)}
          hint={clock.timeZone}
        />
        <TextField
          label="Text"
          value={text}
          maxLength={200}
          placeholder="Filter changed"
          onChange={(e) => setText(e.target.value)}
        />
      </div>
      <div className="chart-editor__row chart-editor__row--add">
        <SelectField label="On" value={target} onChange={(e) => setTarget(e.target.value)}>
          <option value="">Every channel (plot line)</option>
          {channels.map((channel) => (
            <option key={channel.key} value={channel.key}>
              {channel.label}
            </option>
          ))}
        </SelectField>
        <div className="fl-field chart-editor__colour">
          <label className="fl-field__label" htmlFor={`${id}-colour`}>
            Colour
          </label>
          <input id={`${id}-colour`} type="color" value={colour} onChange={(e) => setColour(e.target.value)} />
        </div>
        <Button size="sm" variant="primary" onClick={add} disabled={!valid || draft.annotations.length >= 200}>
          <PlusIcon size={15} /> Add
        </Button>
      </div>
      {draft.annotations.length === 0 ? (
        <p className="chart-editor__hint">No plot lines or notes yet.</p>
      ) : (
        <ul className="chart-editor__list">
          {draft.annotations.map((annotation, index) => {
            const channel =
              annotation.channel &&
              channels.find((c) => c.key === widgetChannelKey(annotation.channel!.deviceId, annotation.channel!.code));
            return (
              <li key={`${annotation.timestamp}-${index}`} className="chart-editor__item">
                <span
                  className={`chart-editor__mark chart-editor__mark--${annotation.kind}`}
                  style={{ background: annotation.color || channel?.colour || PLOT_LINE_COLOR }}
                  aria-hidden="true"
                />
                <span className="chart-editor__item-text">
                  <strong>{annotation.text}</strong>
                  <span>
                    {formatDateTime(annotation.timestamp, clock)} ·{' '}
                    {annotation.kind === 'plotLine'
                      ? 'plot line'
                      : (channel?.label ?? annotation.channel?.code ?? 'channel')}
                  </span>
                </span>
                <Button
                  size="sm"
                  variant="ghost"
                  onClick={() => remove(index)}
                  aria-label={`Remove ${annotation.text}`}
                >
                  <TrashIcon size={15} />
                </Button>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
