import { useEffect, useMemo, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Tank } from '@fieldlink/api/brew';
import { mergeTankMessage } from '@fieldlink/domain/brew';
import { useStore } from '../../../lib/use-store';
import { realtimeStore } from '../../../lib/realtime/realtime-store';
import { brewBatchesQuery } from '../api/get-brew-batches';
import { useBrewOverview } from '../../../lib/api/get-brew-overview';

/**
 * Which batch runs in each tank, as one key: it changes when a batch starts, ends, is deleted or has
 * its end taken back, wherever that was done.
 */
export function runningBatchesKey(tanks: readonly Pick<Tank, 'deviceId' | 'batchInfo'>[]): string {
  return tanks.map((tank) => `${tank.deviceId}:${tank.batchInfo?.id ?? ''}`).join(',');
}

/**
 * The group's tanks: the summary as last read, each replaced by a tank the server pushed since
 * (`server/brewTank`) by the domain's rule (an active tank keeps its shown notes and readings). When
 * a pushed tank shows another running batch (one started, ended or taken back elsewhere), the group's
 * batches are read again, so the finished batches do not wait for a reload. With `tankNumber` (the
 * tank view) that tank comes with its batch's log (`rawDeviceLogs`).
 */
export function useTanks(groupId: string, tankNumber: number | null = null) {
  const overview = useBrewOverview(groupId, tankNumber);
  const pushed = useStore(realtimeStore, (state) => state.brewTanks);
  const tanks = useMemo((): Tank[] | undefined => {
    const read = overview.data?.tanks;
    if (!read) return undefined;
    return read.map((tank) => {
      const update = pushed[tank.thingName];
      const newer = update && update.groupId === groupId && update.receivedAt > overview.dataUpdatedAt;
      if (!newer) return tank;
      const merged = mergeTankMessage(tank, update.tank);
      // A push carries no log: the tank keeps the one read for the same batch until the next read.
      const sameBatch = merged.batchInfo !== null && merged.batchInfo.id === tank.batchInfo?.id;
      return sameBatch && merged.rawDeviceLogs === null ? { ...merged, rawDeviceLogs: tank.rawDeviceLogs } : merged;
    });
  }, [overview.data, overview.dataUpdatedAt, pushed, groupId]);

  const queryClient = useQueryClient();
  const running = tanks ? runningBatchesKey(tanks) : null;
  const shown = useRef(running);
  useEffect(() => {
    if (running !== null && shown.current !== null && running !== shown.current) {
      void queryClient.invalidateQueries({ queryKey: brewBatchesQuery(groupId).queryKey });
    }
    if (running !== null) shown.current = running;
  }, [running, groupId, queryClient]);
  return { overview, tanks };
}
