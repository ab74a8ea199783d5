import { useState } from 'react';
import type { Device } from '@fieldlink/api/device';
import { mutedListsMatch, requestedMutedList } from '@fieldlink/domain/device-panel';
import { serverErrorMessage } from '../../../lib/api-client';
import { showToast } from '../../../lib/app-store/app-store';
import { useDeviceConfig } from '../api/post-device-config';

/**
 * Mute Disconnection (core §4): saved at once, with a spinner until the muted list the server
 * confirms equals the one asked for. While saving the checkbox shows what was asked.
 */
export function useMuteToggle(device: Device | undefined) {
  const config = useDeviceConfig();
  const [wanted, setWanted] = useState<boolean | null>(null);

  const toggle = (muted: boolean) => {
    if (!device) return;
    setWanted(muted);
    config.mutate(
      { id: device.id, props: { muteDisconnection: muted } },
      {
        onSuccess: (answer) => {
          const requested = requestedMutedList(answer.mutedDevices, device.thingName, muted);
          if (!mutedListsMatch(requested, answer.mutedDevices)) showToast('error', 'The mute setting was not saved.');
          setWanted(null);
        },
        onError: (error) => {
          showToast('error', serverErrorMessage(error));
          setWanted(null);
        },
      },
    );
  };

  return {
    muted: wanted ?? device?.muted ?? false,
    saving: wanted !== null,
    toggle,
  };
}
