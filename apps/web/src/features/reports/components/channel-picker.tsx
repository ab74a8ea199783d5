import { useMemo, useState } from 'react';
import { ChevronDownIcon, ChevronRightIcon, SearchIcon } from '../../../components/ui/icons';
import type { PickableDevice } from '../model/report-form';

/** How many of a device's channels are chosen, as its row says it. */
function channelsNote(chosen: number, total: number): string {
  if (total === 0) return 'no channels';
  if (chosen === 0) return `${total} ${total === 1 ? 'channel' : 'channels'}`;
  if (chosen === total) return `all ${total} channels`;
  return `${chosen} of ${total} channels`;
}

/**
 * The devices of the account with their channels, to tick for a report. Ticking a device takes all
 * its channels (as does "All channels" when it is open); opening it picks single ones. A search narrows the list by device, serial or group.
 */
export function ChannelPicker({
  devices,
  value,
  onChange,
  disabled = false,
}: {
  devices: readonly PickableDevice[];
  value: Record<string, string[]>;
  onChange: (value: Record<string, string[]>) => void;
  disabled?: boolean;
}) {
  const [search, setSearch] = useState('');
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const shown = useMemo(() => {
    const text = search.trim().toLowerCase();
    if (text === '') return devices;
    return devices.filter((device) =>
      [device.name, device.thingName, device.groupName].some((field) => field.toLowerCase().includes(text)),
    );
  }, [devices, search]);
  const channelCount = Object.values(value).reduce((sum, codes) => sum + codes.length, 0);
  const deviceCount = Object.values(value).filter((codes) => codes.length > 0).length;

  const setCodes = (deviceId: string, codes: string[]) => {
    const next = { ...value };
    if (codes.length === 0) delete next[deviceId];
    else next[deviceId] = codes;
    onChange(next);
  };
  const toggleOpen = (deviceId: string) => {
    const next = new Set(open);
    if (next.has(deviceId)) next.delete(deviceId);
    else next.add(deviceId);
    setOpen(next);
  };

  return (
    <div className="reports-picker">
      <div className="reports-picker__head">
        <label className="reports-search">
          <SearchIcon size={15} />
          <input
            className="fl-input"
            type="search"
            placeholder="Find a device or group"
            aria-label="Find a device or group"
            value={search}
            disabled={disabled}
            onChange={(event) => setSearch(event.target.value)}
          />
        </label>
        <span className="fl-muted reports-picker__count" aria-live="polite">
          {channelCount === 0
            ? 'Nothing chosen'
            : `${channelCount} ${channelCount === 1 ? 'channel' : 'channels'} of ${deviceCount} ${deviceCount === 1 ? 'device' : 'devices'}`}
        </span>
      </div>
      <ul className="reports-picker__list" aria-label="Devices and channels">
        {shown.length === 0 && <li className="reports-picker__empty fl-muted">No device matches.</li>}
        {shown.map((device) => {
          const chosen = value[device.id] ?? [];
          const all = device.channels.length > 0 && chosen.length === device.channels.length;
          const some = chosen.length > 0 && !all;
          const expanded = open.has(device.id);
          return (
            <li key={device.id} className="reports-picker__device">
              <div className="reports-picker__row">
                <button
                  type="button"
                  className="reports-picker__toggle"
                  aria-label={`${expanded ? 'Hide' : 'Show'} the channels of ${device.name}`}
                  aria-expanded={expanded}
                  onClick={() => toggleOpen(device.id)}
                  disabled={device.channels.length === 0}
                >
                  {expanded ? <ChevronDownIcon size={15} /> : <ChevronRightIcon size={15} />}
                </button>
                <label className="reports-check">
                  <input
                    type="checkbox"
                    checked={all}
                    ref={(input) => {
                      if (input) input.indeterminate = some;
                    }}
                    disabled={disabled || device.channels.length === 0}
                    onChange={() => setCodes(device.id, all ? [] : device.channels.map((channel) => channel.code))}
                  />
                  <span>
                    <strong>{device.name}</strong>
                    <span className="fl-sub">
                      {device.groupName} · {device.thingName} · {channelsNote(chosen.length, device.channels.length)}
                    </span>
                  </span>
                </label>
              </div>
              {expanded && (
                <ul className="reports-picker__channels">
                  <li className="reports-picker__all">
                    <label className="reports-check">
                      <input
                        type="checkbox"
                        checked={all}
                        disabled={disabled}
                        onChange={() => setCodes(device.id, all ? [] : device.channels.map((channel) => channel.code))}
                      />
                      <span>All channels ({device.channels.length})</span>
                    </label>
                  </li>
                  {device.channels.map((channel) => (
                    <li key={channel.code}>
                      <label className="reports-check">
                        <input
                          type="checkbox"
                          checked={chosen.includes(channel.code)}
                          disabled={disabled}
                          onChange={(event) =>
                            setCodes(
                              device.id,
                              event.target.checked
                                ? [...chosen, channel.code]
                                : chosen.filter((code) => code !== channel.code),
                            )
                          }
                        />
                        <span>
                          {channel.name} <span className="fl-muted">({channel.code})</span>
                        </span>
                      </label>
                    </li>
                  ))}
                </ul>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
