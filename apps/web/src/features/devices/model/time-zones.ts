/** Time zones the platform knows, with `current` first when the platform does not list it (`Etc/UTC`). */
export function timeZones(current: string): string[] {
  const all = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return all.includes(current) ? all : [current, ...all];
}
