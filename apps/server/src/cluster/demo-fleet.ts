import type { DeviceBroker } from '../broker/device-broker';
import type { ExternalBroker } from '../broker/external-broker';
import type { FleetDevice } from '../seed/seed';

/**
 * Gives each demo device its account at the external broker. Their passwords derive from the
 * installation's demo key, so this can be done again at every start (and by every instance).
 */
export async function provisionDemoFleet(broker: DeviceBroker, devices: readonly FleetDevice[]): Promise<void> {
  if (broker.kind !== 'external') return;
  const { credentials } = broker as ExternalBroker;
  for (const device of devices) await credentials.provision(device.thingName, device.password);
}
