import { useMemo } from 'react';
import type { Tank } from '@fieldlink/api/brew';
import { mergeTankMessage } from '@fieldlink/domain/brew';
import { useStore } from '../../../lib/use-store';
import { realtimeStore } from '../../../lib/realtime/realtime-store';
import { useBrewOverview } from '../api/get-brew-overview';

/**
 * The group's tanks: the summary as last read, each replaced by a tank the server pushed since
 * (`server/brewTank`) by the domain's rule (an active tank keeps its shown notes and readings).
 */
export function useTanks(groupId: string) {
  const overview = useBrewOverview(groupId);
  const pushed = useStore(realtimeStore, (state) => state.brewTanks);
  const tanks = useMemo((): Tank[] | undefined => {
    const read = overview.data?.tanks;
    if (!read) return undefined;
    return read.map((tank) => {
      const update = pushed[tank.thingName];
      const newer = update && update.groupId === groupId && update.receivedAt > overview.dataUpdatedAt;
      return newer ? mergeTankMessage(tank, update.tank) : tank;
    });
  }, [overview.data, overview.dataUpdatedAt, pushed, groupId]);
  return { overview, tanks };
}
