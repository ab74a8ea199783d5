import { useOtaReload } from '../hooks/use-ota-reload';

/** Reloads devices 30 s after their OTA update finished (§4); mounted once in the shell. */
export function OtaReloadWatcher() {
  useOtaReload();
  return null;
}
