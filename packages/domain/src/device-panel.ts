/**
 * Rules of the device general-information panel and its map (specification core §2, §4, §5, §9).
 */
import { isValidLocation, roundCoordinate } from './location';

/** Connection facts of a device. Times are unix milliseconds. */
export interface DeviceConnectionFacts {
  isConnected: boolean;
  lastConnection: number | null;
  lastDisconnection: number | null;
}

/**
 * The connection line of the attribute list: a connected device shows when it last disconnected,
 * a disconnected one when it last connected. Null when that time is unknown.
 */
export function connectionAttribute(
  device: DeviceConnectionFacts,
): { label: 'Last disconnection' | 'Last connection'; t: number } | null {
  if (device.isConnected) {
    return device.lastDisconnection === null ? null : { label: 'Last disconnection', t: device.lastDisconnection };
  }
  return device.lastConnection === null ? null : { label: 'Last connection', t: device.lastConnection };
}

/** The plan as shown: PREMIUM is Premium, anything else Free. */
export function planLabel(plan: string | null | undefined): 'Premium' | 'Free' {
  return plan === 'PREMIUM' ? 'Premium' : 'Free';
}

/** Address search (§5, §9). */
export const ADDRESS_SEARCH_MIN_LENGTH = 1;
export const ADDRESS_SEARCH_DELAY_MS = 250;
export const ADDRESS_SEARCH_MAX_SUGGESTIONS = 10;
/** Suggestions are biased to this radius around the current location (km). */
export const ADDRESS_SEARCH_RADIUS_KM = 20;
/** Suggestions hide this long after the search box loses focus, so a click on one still lands. */
export const ADDRESS_SUGGESTIONS_BLUR_HIDE_MS = 100;

/** True when a search text is long enough to search for. */
export function shouldSearchAddress(text: string): boolean {
  return text.trim().length >= ADDRESS_SEARCH_MIN_LENGTH;
}

/** A coordinate box of `radiusKm` around a point (west, south, east, north), for a geocoder's bias. */
export function boundingBox(lat: number, lng: number, radiusKm: number): [number, number, number, number] {
  const dLat = radiusKm / 111.32;
  const dLng = radiusKm / (111.32 * Math.max(0.01, Math.cos((lat * Math.PI) / 180)));
  const clampLat = (value: number) => Math.max(-90, Math.min(90, value));
  const clampLng = (value: number) => Math.max(-180, Math.min(180, value));
  return [clampLng(lng - dLng), clampLat(lat - dLat), clampLng(lng + dLng), clampLat(lat + dLat)];
}

/** The map (§2). */
export const MAP_DEFAULT_CENTER = { lat: 32.7767, lng: -96.797 } as const;
export const MAP_SINGLE_MARKER_ZOOM = 10;
export const MAP_DEFAULT_ZOOM = 1;

/**
 * The map's tile source, or null when the map is not rendered (§2, §5): only with a non-blank maps key, and (here, where the tiles
 * come from a configured tile source rather than a fixed provider) a tile URL to ask with that key.
 */
export function mapSource(config: {
  mapKey: string | null;
  mapTileUrl: string | null;
}): { tileUrl: string; key: string } | null {
  const key = config.mapKey?.trim();
  const tileUrl = config.mapTileUrl?.trim();
  return key && tileUrl ? { tileUrl, key } : null;
}

/** Where the map looks: zoom 10 centred on a single marker, otherwise zoom 1 at the default centre. */
export function mapView(markers: readonly { lat: number; lng: number }[]): {
  center: { lat: number; lng: number };
  zoom: number;
} {
  const only = markers.length === 1 ? markers[0] : undefined;
  return only
    ? { center: { lat: only.lat, lng: only.lng }, zoom: MAP_SINGLE_MARKER_ZOOM }
    : { center: { ...MAP_DEFAULT_CENTER }, zoom: MAP_DEFAULT_ZOOM };
}

/** Marker colour: green when connected, red when not. */
export function markerColour(isConnected: boolean): 'green' | 'red' {
  return isConnected ? 'green' : 'red';
}

/** True when the server-confirmed muted list equals the requested one (order does not matter). */
export function mutedListsMatch(requested: readonly string[], confirmed: readonly string[]): boolean {
  const wanted = new Set(requested);
  const got = new Set(confirmed);
  return wanted.size === got.size && [...wanted].every((thingName) => got.has(thingName));
}

/** The muted list a mute toggle asks for. */
export function requestedMutedList(current: readonly string[], thingName: string, muted: boolean): string[] {
  const rest = current.filter((name) => name !== thingName);
  return muted ? [...rest, thingName] : rest;
}

/** What an edit of the device panel holds; untouched fields are absent. */
export interface DeviceDraft {
  name?: string;
  site?: string;
  /** Text inputs while typing, numbers once chosen from an address. */
  location?: { lat?: number | string | null; lng?: number | string | null; address?: string | null };
}

/** The props a device-node Apply sends. */
export interface DeviceDraftProps {
  name?: string;
  site?: string | null;
  location?: { lat: number; lng: number; address?: string };
}

/**
 * The props of a device draft (§4, §5): a draft location is included only when it is valid (both
 * coordinates present and numeric), rounded to 6 decimals; a blank site clears it; a blank name is
 * left out. An empty result means Apply just leaves edit mode.
 */
export function draftToProps(draft: DeviceDraft): DeviceDraftProps {
  const props: DeviceDraftProps = {};
  if (draft.name !== undefined && draft.name.trim() !== '') props.name = draft.name.trim();
  if (draft.site !== undefined) props.site = draft.site.trim() === '' ? null : draft.site.trim();
  const location = draft.location;
  if (location && isValidLocation(location)) {
    const lat = Number(location.lat);
    const lng = Number(location.lng);
    if (Number.isFinite(lat) && Number.isFinite(lng) && Math.abs(lat) <= 90 && Math.abs(lng) <= 180) {
      const address = location.address?.trim();
      props.location = {
        lat: roundCoordinate(lat),
        lng: roundCoordinate(lng),
        ...(address ? { address } : {}),
      };
    }
  }
  return props;
}
