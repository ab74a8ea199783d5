import { DeviceDashPage } from '../features/dash/components/device-dash-page';
import { DeviceInfoPanel } from '../features/devices/components/device-info-panel';
import { ChannelAlarmButton } from '../features/alarms/components/channel-alarm-button';
import { DeviceOtaStatus } from '../features/ota/components/device-ota-status';

/**
 * `/dash/:thingName`: the device dash with the general-information panel and map of the devices
 * feature in it. Composed here because features do not import each other.
 */
export function DeviceDashRoute() {
  return (
    <DeviceDashPage
      renderInfo={(device) => (
        <>
          <DeviceOtaStatus deviceId={device.id} thingName={device.thingName} />
          <DeviceInfoPanel deviceId={device.id} />
        </>
      )}
      renderChannelAlarm={(device, code, title) => (
        <ChannelAlarmButton deviceId={device.id} code={code} title={title} />
      )}
    />
  );
}
