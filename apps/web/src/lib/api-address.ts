import { CLIENT_TYPE, CLIENT_VERSION } from '@fieldlink/api/first-calls';
import {
  API_PATH,
  apiBase,
  realtimeAddress,
  settingList,
  type ApiAddressConfig,
  type ApiPage,
} from '@fieldlink/domain/api-address';
import { currentSubdomain } from './subdomain';

// Where calls go and what they carry, apart from the client that sends them (`api-client.ts`): the
// start-up's first calls (`early-calls.ts`) are sent from here before the client's code has loaded.

/**
 * Where the API is (specification §7), fixed when the console is built: `FIELDLINK_API_HOST` (the
 * production host), `FIELDLINK_API_DEV_HOST` (the local development host, for `vite dev`) and
 * `FIELDLINK_API_NEXT_SUBDOMAINS`; none of them: the console's own origin.
 */
const API_ADDRESS: ApiAddressConfig = {
  productionHost: import.meta.env.FIELDLINK_API_HOST || null,
  developmentHost: import.meta.env.FIELDLINK_API_DEV_HOST || null,
  nextSubdomains: settingList(import.meta.env.FIELDLINK_API_NEXT_SUBDOMAINS),
};

const currentPage = (): ApiPage => ({
  protocol: typeof location === 'undefined' ? 'https:' : location.protocol,
  subdomain: currentSubdomain(),
  development: import.meta.env.DEV,
});

/** Base of every call: `/api/v1` on this origin, or on the configured host. */
export const apiBaseUrl = (): string => apiBase(API_ADDRESS, currentPage());

/** The real-time socket's address: beside the API, with the page's security (ws or wss). */
export const realtimeUrl = (path: string): string =>
  realtimeAddress(API_ADDRESS, { ...currentPage(), host: location.host }, path);

/** A path the server answered (`/api/v1/videos/intro.mp4`) as an address on the API's host. */
export const apiResourceUrl = (path: string): string =>
  path.startsWith(`${API_PATH}/`) ? `${apiBaseUrl()}${path.slice(API_PATH.length)}` : path;

export type Query = Record<string, string | number | boolean | undefined>;

/** Headers every call carries (§7): token, client type, client version, subdomain. */
export function apiHeaders(token: string | null, subdomain: string): Record<string, string> {
  const headers: Record<string, string> = {
    accept: 'application/json',
    'x-client-type': CLIENT_TYPE,
    'x-client-version': CLIENT_VERSION,
    'x-subdomain': subdomain,
  };
  if (token) headers.authorization = token;
  return headers;
}

export function buildUrl(path: string, query?: Query): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined) params.set(key, String(value));
  }
  const search = params.toString();
  return `${apiBaseUrl()}${path}${search ? `?${search}` : ''}`;
}
