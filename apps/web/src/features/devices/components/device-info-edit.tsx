import { CONFIGURE_DEVICES_REFUSAL } from '@fieldlink/domain/device-actions';
import { useId, useState } from 'react';
import { CONTACT_SUPPLIER_FOR_PLAN, type Device } from '@fieldlink/api/device';
import { draftToProps, planLabel, type DeviceDraft } from '@fieldlink/domain/device-panel';
import { isValidLocation } from '@fieldlink/domain/location';
import { Button } from '../../../components/ui/button';
import { InlineAlert } from '../../../components/ui/inline-alert';
import { RefusalNote } from '../../../components/ui/refusal-note';
import { Spinner } from '../../../components/ui/spinner';
import { TextField } from '../../../components/ui/text-field';
import { serverErrorMessage } from '../../../lib/api-client';
import { showToast } from '../../../lib/app-store/app-store';
import { useDeviceConfig } from '../api/post-device-config';
import type { useMuteToggle } from '../hooks/use-mute-toggle';
import { AddressSearch } from './address-search';

export interface DeviceInfoEditProps {
  device: Device;
  canConfigure: boolean;
  isAdmin: boolean;
  geocoderUrl: string | null;
  mute: ReturnType<typeof useMuteToggle>;
  onDone: () => void;
}

/**
 * Edit mode of the device panel (core §2, §4): changes go into a draft; Apply sends it (reading
 * "Applying" while busy) and leaves edit mode, an empty draft just leaves; Discard leaves without
 * saving. Mute Disconnection is saved at once, with its own spinner.
 */
export function DeviceInfoEdit({ device, canConfigure, isAdmin, geocoderUrl, mute, onDone }: DeviceInfoEditProps) {
  const [draft, setDraft] = useState<DeviceDraft>({});
  const [planNotice, setPlanNotice] = useState(false);
  const config = useDeviceConfig();
  const muteId = useId();
  const location = draft.location ?? null;
  const shownAddress = location ? (location.address ?? null) : (device.location?.address ?? null);

  const apply = () => {
    const props = draftToProps(draft);
    if (Object.keys(props).length === 0) {
      onDone();
      return;
    }
    config.mutate(
      { id: device.id, props },
      {
        onSuccess: () => onDone(),
        // The applying flag resets (mutation state); the draft stays for another try.
        onError: (error) => showToast('error', serverErrorMessage(error)),
      },
    );
  };

  const setLocation = (change: Partial<NonNullable<DeviceDraft['location']>>) =>
    setDraft((current) => ({
      ...current,
      location: {
        lat: current.location?.lat ?? device.location?.lat ?? '',
        lng: current.location?.lng ?? device.location?.lng ?? '',
        address: null,
        ...change,
      },
    }));

  return (
    <form
      className="device-info__body device-info__form"
      onSubmit={(event) => {
        event.preventDefault();
        apply();
      }}
    >
      {!canConfigure && (
        // Only muting is this user's to change here: the rest is shown disabled, and why.
        <RefusalNote reason={`${CONFIGURE_DEVICES_REFUSAL} You can mute its disconnection alerts.`} />
      )}
      <TextField
        label="Name"
        value={draft.name ?? device.name}
        maxLength={100}
        disabled={!canConfigure}
        onChange={(event) => setDraft((current) => ({ ...current, name: event.target.value }))}
      />
      <TextField
        label="Site"
        value={draft.site ?? device.site ?? ''}
        maxLength={100}
        disabled={!canConfigure}
        onChange={(event) => setDraft((current) => ({ ...current, site: event.target.value }))}
      />
      {isAdmin && (
        <div className="device-info__plan" data-testid="plan-row">
          <span className="fl-field__label">Device Plan</span>
          <div className="device-info__plan-line">
            <span className={`device-info__plan-badge is-${device.plan.toLowerCase()}`}>{planLabel(device.plan)}</span>
            <Button size="sm" variant="secondary" onClick={() => setPlanNotice(true)}>
              {device.plan === 'PREMIUM' ? 'Change' : 'Upgrade'}
            </Button>
          </div>
          {planNotice && <InlineAlert tone="info">{CONTACT_SUPPLIER_FOR_PLAN}</InlineAlert>}
        </div>
      )}
      <label className="device-info__check" htmlFor={muteId}>
        <input
          id={muteId}
          type="checkbox"
          checked={mute.muted}
          disabled={mute.saving}
          onChange={(event) => mute.toggle(event.target.checked)}
        />
        <span>Mute Disconnection</span>
        {mute.saving && <Spinner size={14} label="Saving mute setting" />}
      </label>
      <div className="device-info__location-edit">
        <span className="fl-field__label">Location</span>
        <p className="device-info__current-location" data-testid="current-location">
          {shownAddress ??
            (location && location.lat !== '' && location.lng !== ''
              ? `${location.lat}, ${location.lng}`
              : device.location
                ? `${device.location.lat.toFixed(6)}, ${device.location.lng.toFixed(6)}`
                : 'No location set')}
        </p>
        {geocoderUrl && canConfigure && (
          <AddressSearch
            geocoderUrl={geocoderUrl}
            near={device.location}
            onChoose={(place) => setLocation({ lat: place.lat, lng: place.lng, address: place.label })}
          />
        )}
        <div className="device-info__coords-edit">
          <TextField
            label="Latitude"
            inputMode="decimal"
            value={String(location?.lat ?? device.location?.lat ?? '')}
            disabled={!canConfigure}
            onChange={(event) => setLocation({ lat: event.target.value })}
          />
          <TextField
            label="Longitude"
            inputMode="decimal"
            value={String(location?.lng ?? device.location?.lng ?? '')}
            disabled={!canConfigure}
            onChange={(event) => setLocation({ lng: event.target.value })}
          />
        </div>
        {location && !isValidLocation(location) && (
          // The one message of this form (docs/decisions.md "Form validation"): without it Apply would
          // silently keep the old location (§5 saves a draft location only with both coordinates).
          <p className="device-info__field-note" role="status" data-testid="location-incomplete">
            Enter both latitude and longitude: the location is saved only with both.
          </p>
        )}
      </div>
      <div className="device-info__actions">
        <Button variant="ghost" onClick={onDone} disabled={config.isPending}>
          Discard
        </Button>
        <Button type="submit" variant="primary" busy={config.isPending}>
          {config.isPending ? 'Applying' : 'Apply'}
        </Button>
      </div>
    </form>
  );
}
