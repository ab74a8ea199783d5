import { useMemo } from 'react';
import type { Account } from '@fieldlink/api/account';
import { Button } from '../../../components/ui/button';
import { CloseIcon, PlusIcon } from '../../../components/ui/icons';
import { TextField } from '../../../components/ui/text-field';
import { groupTrail, listDevices } from '../../../lib/account-tree';
import { deviceChannelName, type DeviceIndex } from '../model/resolve-channels';
import {
  ARC_SEGMENTS_MAX,
  parseNumber,
  rowKey,
  type ChannelRow,
  type WidgetForm,
  type WidgetFormErrors,
} from '../model/widget-form';
import { Checkbox, ColourField, EditorSection, FieldError, NumberField } from './widget-editor-fields';

export function ChannelsSection({
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

export function ArcSegmentsSection({
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
