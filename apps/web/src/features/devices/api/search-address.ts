import { ADDRESS_SEARCH_MAX_SUGGESTIONS, ADDRESS_SEARCH_RADIUS_KM, boundingBox } from '@fieldlink/domain/device-panel';

/** An address the geocoder found. */
export interface AddressSuggestion {
  label: string;
  lat: number;
  lng: number;
}

/** The search address of a Nominatim-compatible geocoder: its `/search`, unless the URL already names it. */
export function geocoderSearchUrl(
  geocoderUrl: string,
  query: string,
  near: { lat: number; lng: number } | null,
): string {
  const base = geocoderUrl.replace(/\/+$/, '');
  const url = new URL(/\/search$/.test(base) ? base : `${base}/search`, location.href);
  url.searchParams.set('q', query);
  url.searchParams.set('format', 'jsonv2');
  url.searchParams.set('limit', String(ADDRESS_SEARCH_MAX_SUGGESTIONS));
  if (near) {
    // Biased, not bounded: addresses elsewhere still come, nearby ones first (§5 radius 20).
    url.searchParams.set('viewbox', boundingBox(near.lat, near.lng, ADDRESS_SEARCH_RADIUS_KM).join(','));
    url.searchParams.set('bounded', '0');
  }
  return url.toString();
}

/**
 * Asks the configured geocoder for addresses (core §5: at most 10). The browser calls it directly,
 * so the geocoder must allow this origin (Nominatim does).
 */
export async function searchAddress(
  geocoderUrl: string,
  query: string,
  near: { lat: number; lng: number } | null,
  signal?: AbortSignal,
): Promise<AddressSuggestion[]> {
  const response = await fetch(geocoderSearchUrl(geocoderUrl, query, near), {
    signal,
    headers: { accept: 'application/json' },
  });
  if (!response.ok) throw new Error(`Address search failed (${response.status})`);
  const places = (await response.json()) as unknown;
  if (!Array.isArray(places)) return [];
  return places
    .map((place: { display_name?: unknown; lat?: unknown; lon?: unknown }) => ({
      label: typeof place.display_name === 'string' ? place.display_name : '',
      lat: Number(place.lat),
      lng: Number(place.lon),
    }))
    .filter((place) => place.label !== '' && Number.isFinite(place.lat) && Number.isFinite(place.lng))
    .slice(0, ADDRESS_SEARCH_MAX_SUGGESTIONS);
}
