import type { Scene } from '@fieldlink/api/scenes';
import { DEMO_ACCOUNT_KIND } from '@fieldlink/domain/demo';
import { fleetOverview } from '@fieldlink/domain/fleet-overview';
import { sceneView } from '@fieldlink/domain/scene-view';
import type { DeviceSnapshot } from '../worker/protocol';
import { DEMO_ACCOUNT_ID, type DemoDataset } from './demo-dataset';

/**
 * The demo account's dashboard: its root group's one scene, the fleet's overview (domain
 * `fleetOverview`, which the server's seed gives its demo account too). The account is of kind
 * `demo`, so the scene is read-only (§4, domain `sceneView`).
 */
export function demoScenes(dataset: DemoDataset, snapshots: readonly DeviceSnapshot[]): Scene[] {
  const { rootId, fleet } = dataset;
  const devices = snapshots.map(({ thingName, channels }) => {
    const name = dataset.devices.get(thingName)?.fleet.name ?? thingName;
    return { id: thingName, name, channels };
  });
  const { widgets, ...overview } = fleetOverview(fleet.accountName, devices, (index) => `demo-widget-${index + 1}`);
  const scene = sceneView({
    group: { id: rootId, accountId: DEMO_ACCOUNT_ID, appType: fleet.appType, accountKind: DEMO_ACCOUNT_KIND },
    scene: { id: 'demo-overview', isGridLocked: true, ...overview },
    widgets,
    index: 0,
    // The prospect edits no dashboard; a demo account's are read-only anyway (§4).
    mayEdit: false,
  });
  return [scene];
}
