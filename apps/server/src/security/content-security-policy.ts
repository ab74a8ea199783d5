import type { Config } from '../config';

/**
 * A CSP source for a configured address: its scheme, host and port. A placeholder label in front of
 * the host (`https://{s}.tile.example.com/{z}/{x}/{y}.png`) becomes `*`, any other placeholder in the
 * host leaves only the scheme; an address that is not absolute adds nothing.
 */
function sourceOf(address: string): string | null {
  const match = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]+)/i.exec(address.trim());
  if (!match) return null;
  const scheme = match[1]!.toLowerCase();
  const host = match[2]!.replace(/^[^@]*@/, '').replace(/^\{[^}]*\}\./, '*.');
  return /[{}\s]/.test(host) ? `${scheme}:` : `${scheme}://${host.toLowerCase()}`;
}

/**
 * The API host a console built with `FIELDLINK_API_HOST` calls (core §7), with its `next.` twin when
 * some subdomains take that prefix, in either scheme: the page's scheme decides which.
 */
function consoleApiSources(host: string | null, nextSubdomains: readonly string[]): string[] {
  if (host === null) return [];
  const hosts = nextSubdomains.length > 0 && !host.startsWith('next.') ? [host, `next.${host}`] : [host];
  return hosts.flatMap((name) => ['https', 'wss', 'http', 'ws'].map((scheme) => `${scheme}://${name.toLowerCase()}`));
}

/**
 * The directives of every answer's Content-Security-Policy (sent by `@fastify/helmet`). Scripts come only from the console's own files: the
 * built index.html has no inline script, and no `eval`; a script an attacker manages to inject into
 * a page does not run. Styles allow inline attributes (the chart readout and the map set them).
 * Images, media and connections may also reach the map tiles, video library and geocoder the
 * configuration names, and the API host the console was built for; nothing else. No site may frame
 * the console (`frame-ancestors`, beside X-Frame-Options), no plug-ins, and forms and `<base>` stay
 * on this origin.
 */
export function contentSecurityDirectives(
  config: Pick<Config, 'mapTileUrl' | 'geocoderUrl' | 'videoUrls' | 'consoleApiHost' | 'consoleApiNextSubdomains'>,
): Record<string, string[]> {
  const sources = (...addresses: (string | null)[]): string[] => [
    ...new Set(addresses.flatMap((address) => (address === null ? [] : (sourceOf(address) ?? [])))),
  ];
  const videos = config.videoUrls.map((entry) => entry.slice(entry.indexOf('|') + 1));
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:', ...sources(config.mapTileUrl)],
    'media-src': ["'self'", ...sources(...videos)],
    'connect-src': [
      "'self'",
      ...sources(config.geocoderUrl),
      ...consoleApiSources(config.consoleApiHost, config.consoleApiNextSubdomains),
    ],
    'font-src': ["'self'", 'data:'],
    'worker-src': ["'self'"],
    'frame-src': ["'self'"],
    'frame-ancestors': ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
  };
}
