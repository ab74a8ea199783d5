import { useMemo } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { hasPlantDashboard, isPlantAppType } from '@fieldlink/domain/plant-dashboard';
import { DeviceDashPage } from '../features/dash/components/device-dash-page';
import { DeviceInfoPanel } from '../features/devices/components/device-info-panel';
import { DeviceSettingsPanel } from '../features/devices/components/device-settings-panel';
import { ChannelAlarmButton } from '../features/alarms/components/channel-alarm-button';
import { DeviceOtaStatus } from '../features/ota/components/device-ota-status';
import { PlantDashboard } from '../features/scenes/components/plant-dashboard-page';
import { useSceneContext } from '../features/scenes/hooks/use-scene-context';
import { findDeviceByThingName } from '../lib/account-tree';
import { useDevice } from '../lib/api/get-device';
import { PageFallback } from './shell/page-fallback';

/** `?view=device` opens a plant's own device dash instead of its generated plant dashboard. */
const DEVICE_VIEW = 'device';

/**
 * `/dash/:thingName`: a water plant of the `filtec` and `filtec moe` app types with its configuration
 * tag gets its dashboard generated from the plant model (applications §2); every other device, and a
 * plant asked for with `?view=device`, the device dash with the general-information panel, map and
 * settings of the devices feature in it. Composed here because features do not import each other.
 */
export function DeviceDashRoute() {
  const { thingName = '' } = useParams();
  const [search] = useSearchParams();
  const context = useSceneContext();
  const placed = useMemo(
    () => (context.status === 'ready' ? findDeviceByThingName(context.accounts, thingName) : null),
    [context, thingName],
  );
  // The plant dashboard is the device's account's: a supplier looking at a customer's plant sees it too.
  const appType = placed?.group.appType ?? '';
  const plantApp = isPlantAppType(appType) && search.get('view') !== DEVICE_VIEW;
  const device = useDevice(plantApp ? placed?.device.id : undefined);

  if (plantApp && context.status === 'ready' && placed) {
    if (device.isPending) return <PageFallback />;
    if (device.data && hasPlantDashboard(appType, device.data.tags)) {
      return (
        <PlantDashboard
          appType={appType}
          device={device.data}
          groupId={placed.group.id}
          context={context}
          deviceDetailsTo={`?view=${DEVICE_VIEW}`}
        />
      );
    }
  }
  return (
    <DeviceDashPage
      renderInfo={(target) => (
        <>
          <DeviceOtaStatus deviceId={target.id} thingName={target.thingName} />
          <DeviceInfoPanel deviceId={target.id} />
          <DeviceSettingsPanel deviceId={target.id} thingName={target.thingName} />
        </>
      )}
      renderChannelAlarm={(target, code, title) => (
        <ChannelAlarmButton deviceId={target.id} code={code} title={title} />
      )}
    />
  );
}
