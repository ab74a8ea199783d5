import { Suspense, lazy, useMemo, useState } from 'react';
import type { Device } from '@fieldlink/api/device';
import { mapSource } from '@fieldlink/domain/device-panel';
import { useCan } from '../../../lib/session/use-can';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { BellOffIcon, MapPinIcon, PencilIcon } from '../../../components/ui/icons';
import { Spinner } from '../../../components/ui/spinner';
import { useDevice } from '../../../lib/api/get-device';
import { useClientConfig } from '../../../lib/api/get-client-config';
import { appStore } from '../../../lib/app-store/app-store';
import { useDeviceConnection, useDeviceHealth } from '../../../lib/realtime/use-realtime';
import { useStore } from '../../../lib/use-store';
import { useMuteToggle } from '../hooks/use-mute-toggle';
import { DeviceInfoEdit } from './device-info-edit';
import { DeviceInfoView } from './device-info-view';
import './devices.css';

/**
 * The maps library (Leaflet) ships with the console as its own chunk, loaded with the first map. When
 * it cannot be loaded the console error of §8 is logged and the map area says so; the panel stays.
 */
const DeviceMap = lazy(async () => {
  try {
    return { default: (await import('./device-map')).DeviceMap };
  } catch (error) {
    console.error('The maps library is missing: it could not be loaded', error);
    return { default: MapUnavailable };
  }
});

function MapUnavailable() {
  return (
    <p className="device-info__map-note" role="alert">
      <MapPinIcon size={14} /> The map could not be loaded. Reload the page to try again.
    </p>
  );
}

export interface DeviceInfoPanelProps {
  deviceId: string;
}

/**
 * The device general-information panel and its map (core §2): view mode with the attribute list, the
 * Online/Offline badge, the Device Error line and Update Timezone; edit mode with Name, Site, Device
 * Plan (admins), Mute Disconnection, Location and address search, Apply and Discard.
 */
export function DeviceInfoPanel({ deviceId }: DeviceInfoPanelProps) {
  const device = useDevice(deviceId);
  const map = mapSource(useClientConfig());
  const [editing, setEditing] = useState(false);
  const data = device.data;

  if (!data) {
    return (
      <section className="device-info" aria-label="General information">
        <div className="device-info__panel fl-card">
          {device.isError ? (
            <p className="fl-muted">The device could not be read.</p>
          ) : (
            <div className="device-info__loading" role="status" aria-label="Loading device">
              <Spinner size={18} />
            </div>
          )}
        </div>
      </section>
    );
  }
  return (
    <section className={`device-info${map ? ' has-map' : ''}`} aria-label="General information">
      <PanelCard device={data} editing={editing} onEdit={() => setEditing(true)} onDone={() => setEditing(false)} />
      {map && (
        <div className="device-info__map fl-card">
          <Suspense fallback={<div className="device-map device-map--loading" />}>
            <LiveMap device={data} tileUrl={map.tileUrl} mapKey={map.key} />
          </Suspense>
        </div>
      )}
    </section>
  );
}

function PanelCard({
  device,
  editing,
  onEdit,
  onDone,
}: {
  device: Device;
  editing: boolean;
  onEdit: () => void;
  onDone: () => void;
}) {
  const live = useDeviceConnection(device.thingName);
  const health = useDeviceHealth(device.thingName) ?? device.health;
  const session = useStore(appStore, (s) => s.session);
  const { geocoderUrl } = useClientConfig();
  const mute = useMuteToggle(device);
  const connection = {
    isConnected: live?.isConnected ?? device.isConnected,
    lastConnection: live?.lastConnection ?? device.lastConnection,
    lastDisconnection: live?.lastDisconnection ?? device.lastDisconnection,
  };
  const canConfigure = useCan('configureDevices');

  return (
    <div className="device-info__panel fl-card">
      <header className="device-info__head">
        <div className="device-info__title">
          <h2>General information</h2>
          <span className="device-info__badges" data-testid="panel-connection">
            <Badge tone={connection.isConnected ? 'success' : 'danger'} dot>
              {connection.isConnected ? 'Online' : 'Offline'}
            </Badge>
            {mute.muted && (
              <span className="device-info__muted" title="Disconnection alerts muted" data-testid="muted-icon">
                <BellOffIcon size={16} aria-label="Disconnection alerts muted" />
              </span>
            )}
          </span>
        </div>
        {!editing && (
          <Button size="sm" variant="secondary" onClick={onEdit}>
            <PencilIcon size={14} /> Edit
          </Button>
        )}
      </header>
      {editing ? (
        <DeviceInfoEdit
          device={device}
          canConfigure={canConfigure}
          isAdmin={session.isAdmin}
          geocoderUrl={geocoderUrl}
          mute={mute}
          onDone={onDone}
        />
      ) : (
        <DeviceInfoView device={device} connection={connection} health={health} isAdmin={session.isAdmin} />
      )}
    </div>
  );
}

function LiveMap({ device, tileUrl, mapKey }: { device: Device; tileUrl: string; mapKey: string | null }) {
  const live = useDeviceConnection(device.thingName);
  const devices = useMemo(
    () => [
      {
        thingName: device.thingName,
        name: device.name,
        sn: device.sn,
        isConnected: live?.isConnected ?? device.isConnected,
        location: device.location,
      },
    ],
    [device, live?.isConnected],
  );
  return (
    <>
      <DeviceMap devices={devices} tileUrl={tileUrl} mapKey={mapKey} />
      {!device.location && (
        <p className="device-info__map-note">
          <MapPinIcon size={14} /> This device has no location yet.
        </p>
      )}
    </>
  );
}
