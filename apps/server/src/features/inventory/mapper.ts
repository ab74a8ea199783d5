import type { ShelfProduct } from '@fieldlink/api/device-frames';
import type { ShelfProductTrack, RangeState } from '@fieldlink/domain/retail';
import type { RetailProductsTable } from '../../db/schema';

/** A product a shelf device's channel counts, as its planogram names it. */
export interface ShelfChannel extends ShelfProduct {
  readonly code: string;
  readonly name: string;
}

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
    const product = channel.product;
    if (typeof channel.code !== 'string' || !product) continue;
    if (typeof product.sku !== 'string' || typeof product.slotCount !== 'number' || typeof product.depth !== 'number') {
      continue;
    }
    channels.set(channel.code, {
      code: channel.code,
      name: typeof channel.name === 'string' && channel.name ? channel.name : product.sku,
      sku: product.sku,
      slotCount: product.slotCount,
      depth: product.depth,
      ...(typeof product.planogramId === 'string' ? { planogramId: product.planogramId } : {}),
    });
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
