/**
 * The page subdomain: the first label of the host name (`bp.fieldlink.io` -> `bp`). An IP address
 * has no subdomain. `localhost` is its own first label, which names no theme, so it changes nothing.
 */
export function subdomainOf(hostname: string): string {
  const host = hostname.toLowerCase();
  if (host === '' || /^[0-9.]+$/.test(host) || host.includes(':')) return '';
  return host.split('.')[0] ?? '';
}

export function currentSubdomain(): string {
  return typeof location === 'undefined' ? '' : subdomainOf(location.hostname);
}
