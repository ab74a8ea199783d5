/**
 * The device a user last opened on the device dash, kept in this browser under the local key
 * `fieldlinkLastDevice` (a map from e-mail to thing name, so people sharing a browser keep their
 * own), so that signing in again lands on it rather than on the tree's first device.
 */
export const LAST_DEVICE_STORAGE_KEY = 'fieldlinkLastDevice';

function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

function readMap(): Record<string, string> {
  try {
    const parsed: unknown = JSON.parse(storage()?.getItem(LAST_DEVICE_STORAGE_KEY) ?? '{}');
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, string>) : {};
  } catch {
    return {};
  }
}

/** The thing name the user last opened in this browser, or null. */
export function readLastDevice(email: string | null): string | null {
  if (!email) return null;
  const thingName = readMap()[email];
  return typeof thingName === 'string' ? thingName : null;
}

export function rememberLastDevice(email: string | null, thingName: string): void {
  if (!email || readLastDevice(email) === thingName) return;
  try {
    storage()?.setItem(LAST_DEVICE_STORAGE_KEY, JSON.stringify({ ...readMap(), [email]: thingName }));
  } catch {
    // A full or disabled storage only costs the remembered device.
  }
}
