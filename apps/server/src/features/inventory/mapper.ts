import type { ShelfProduct } from '@fieldlink/api/device-frames';
import {
  shelfProductChannel,
  type ShelfProductChannel,
  type ShelfProductTrack,
  type RangeState,
} from '@fieldlink/domain/retail';
import type { RetailProductsTable } from '../../db/schema';

/** A product a shelf device's channel counts, as its planogram names it (domain `shelfProductChannel`). */
export type ShelfChannel = ShelfProductChannel;

/** The counting channels of a device's stored channel list, by code (channels without a product are not). */
export function shelfChannelsOf(channelsJson: string): Map<string, ShelfChannel> {
  const channels = new Map<string, ShelfChannel>();
  let parsed: unknown;
  try {
    parsed = JSON.parse(channelsJson);
  } catch {
    return channels;
  }
  if (!Array.isArray(parsed)) return channels;
  for (const channel of parsed as { code?: unknown; name?: unknown; product?: Partial<ShelfProduct> }[]) {
    const { sku, slotCount, depth, planogramId } = channel.product ?? {};
    if (typeof channel.code !== 'string' || typeof sku !== 'string') continue;
    if (typeof slotCount !== 'number' || typeof depth !== 'number') continue;
    const name = typeof channel.name === 'string' ? channel.name : null;
    channels.set(channel.code, shelfProductChannel(channel.code, name, { sku, slotCount, depth, planogramId }));
  }
  return channels;
}

export function toTrack(row: RetailProductsTable): ShelfProductTrack {
  return {
    t: row.t,
    count: row.count,
    rangeState: row.range_state as RangeState,
    decreasedAt: row.decreased_at,
    restockedAt: row.restocked_at,
    rangeStateChangedAt: row.range_state_changed_at,
    soldWeight: row.sold_weight,
    stockedHours: row.stocked_hours,
  };
}

export function toTrackRow(deviceId: string, code: string, track: ShelfProductTrack): RetailProductsTable {
  return {
    device_id: deviceId,
    code,
    t: track.t,
    count: track.count,
    range_state: track.rangeState,
    decreased_at: track.decreasedAt,
    restocked_at: track.restockedAt,
    range_state_changed_at: track.rangeStateChangedAt,
    sold_weight: track.soldWeight,
    stocked_hours: track.stockedHours,
  };
}
