/**
 * The API's address (core §7): `{host}/api/v1`. The host comes from configuration (a production host,
 * and a local development host for development builds); pages on some subdomains use the `next.`
 * prefix of that host. Without a configured host the console calls its own origin (a single install).
 */

export const API_PATH = '/api/v1';

export interface ApiAddressConfig {
  /** The production API host (`api.fieldlink.io`, optionally with a port); null: the page's origin. */
  productionHost: string | null;
  /** The local development API host (`localhost:8080`); null: the page's origin (Vite's proxy). */
  developmentHost: string | null;
  /** Page subdomains whose API host takes the `next.` prefix. */
  nextSubdomains: readonly string[];
}

export interface ApiPage {
  protocol: string;
  /** The page's subdomain (first label of its host name, '' for none). */
  subdomain: string;
  development: boolean;
}

/** The configured host for this page, with `next.` where its subdomain asks for it; null: same origin. */
export function apiHost(config: ApiAddressConfig, page: ApiPage): string | null {
  const host = (page.development ? config.developmentHost : config.productionHost)?.trim();
  if (!host) return null;
  const subdomain = page.subdomain.toLowerCase();
  const next = subdomain !== '' && config.nextSubdomains.some((name) => name.trim().toLowerCase() === subdomain);
  return next && !host.startsWith('next.') ? `next.${host}` : host;
}

/** Base of every call: `/api/v1` on the page's origin, or `https://{host}/api/v1` (the page's scheme). */
export function apiBase(config: ApiAddressConfig, page: ApiPage): string {
  const host = apiHost(config, page);
  return host ? `${page.protocol === 'https:' ? 'https:' : 'http:'}//${host}${API_PATH}` : API_PATH;
}

/** The real-time socket's address beside that base: `wss://{host}/api/v1/realtime` and the like. */
export function realtimeAddress(config: ApiAddressConfig, page: ApiPage & { host: string }, path: string): string {
  const scheme = page.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${apiHost(config, page) ?? page.host}${path}`;
}

/** A comma-separated setting as a list (`next, beta` -> ['next', 'beta']). */
export function settingList(value: string | undefined | null): string[] {
  return (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
}
