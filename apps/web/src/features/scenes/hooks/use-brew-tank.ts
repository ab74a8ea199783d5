import { useQuery } from '@tanstack/react-query';
import type { Tank } from '@fieldlink/api/brew';
import { brewOverviewQuery } from '../../../lib/api/get-brew-overview';
import { useDevice } from '../../../lib/api/get-device';

/** A brewing widget's tank: loading, not a tank of the brewing model, or the tank. */
export type BrewTankReading = { status: 'loading' } | { status: 'notATank' } | { status: 'tank'; tank: Tank };

/**
 * The tank of the brewing model behind a widget's device (`GET /brew/overview` of the device's
 * group, the same cached query the brew summary reads, refreshed every minute).
 */
export function useBrewTank(deviceId: string | undefined): BrewTankReading {
  const device = useDevice(deviceId);
  const groupId = device.data?.groupId;
  const overview = useQuery({
    ...brewOverviewQuery(groupId ?? ''),
    enabled: Boolean(groupId),
    refetchInterval: 60_000,
  });
  if (!deviceId || device.isError || overview.isError) return { status: 'notATank' };
  if (!overview.data) return { status: 'loading' };
  const tank = overview.data.tanks.find((candidate) => candidate.deviceId === deviceId);
  return tank ? { status: 'tank', tank } : { status: 'notATank' };
}
