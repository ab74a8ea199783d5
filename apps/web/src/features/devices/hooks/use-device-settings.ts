import { useEffect, useMemo, useReducer, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Device, DeviceConfigAnswer, DeviceMessage, SentDeviceMessage } from '@fieldlink/api/device';
import { REALTIME_COMMAND_FAILED_MESSAGE, REALTIME_TIMEOUT_MESSAGE } from '@fieldlink/api/realtime';
import {
  INITIAL_SETTINGS_STATE,
  isSetpointCode,
  reportedSettings,
  settingKey,
  settingsReducer,
  settingsRequestOf,
  timeZoneWriteRoute,
  type ApplyOutcome,
  type SettingsMessage,
  type SettingValue,
} from '@fieldlink/domain/device-settings';
import { posixTimeZoneRule } from '@fieldlink/domain/time-zone';
import { serverErrorMessage } from '../../../lib/api-client';
import { deviceQuery, deviceQueryKey } from '../../../lib/api/get-device';
import { showToast } from '../../../lib/app-store/app-store';
import { realtimeRequest } from '../../../lib/realtime/realtime-connection';
import { realtimeStore } from '../../../lib/realtime/realtime-store';
import { useDeviceConfig as useLiveConfig, useDeviceConnection } from '../../../lib/realtime/use-realtime';
import { useStore } from '../../../lib/use-store';
import { postDeviceConfig } from '../api/post-device-config';
import { postMessage } from '../api/post-message';

/** While messages wait for the device, its record is read this often to see them delivered. */
const UNSENT_POLL_MS = 5_000;

const SETTINGS_COMMANDS: ReadonlySet<DeviceMessage['cmd']> = new Set([
  'writeConfig',
  'writeChannel',
  'writeRegister',
  'timeDate',
]);

/** The device messages that carry settings (a queued relay write is not a setting). */
function settingsMessagesOf(messages: readonly DeviceMessage[]): SettingsMessage[] {
  return messages.filter(
    (message): message is SettingsMessage =>
      SETTINGS_COMMANDS.has(message.cmd) && (message.cmd !== 'writeChannel' || isSetpointCode(message.code)),
  );
}

function outcomeOf(sent: SentDeviceMessage): ApplyOutcome {
  if (sent.result === 'OK') return { kind: 'sent' };
  return {
    kind: 'failed',
    message: sent.result === 'FAIL' ? REALTIME_COMMAND_FAILED_MESSAGE : REALTIME_TIMEOUT_MESSAGE,
  };
}

/**
 * The device settings screen (application §2): the domain's settings reducer fed by the device
 * record, its live configuration and setpoint values; Apply through `POST /device-config`, then the
 * time-zone write (core §7), over the real-time channel or as `POST /message` when the device is
 * offline or the Apply left messages unsent.
 */
export function useDeviceSettings(deviceId: string, thingName: string) {
  const queryClient = useQueryClient();
  const [state, dispatch] = useReducer(settingsReducer, INITIAL_SETTINGS_STATE);
  const [applying, setApplying] = useState(false);
  const [unsentSeen, setUnsentSeen] = useState(false);
  const device = useQuery({ ...deviceQuery(deviceId), refetchInterval: unsentSeen ? UNSENT_POLL_MS : false });
  const live = useLiveConfig(thingName);
  const connection = useDeviceConnection(thingName);
  const isConnected = connection?.isConnected ?? device.data?.isConnected ?? false;
  // Setpoint values as one string, so other channels' new values do not re-render the screen.
  const setpointText = useStore(realtimeStore, (s) =>
    Object.entries(s.latest[thingName] ?? {})
      .filter(([code]) => isSetpointCode(code))
      .map(([code, latest]) => `${code}=${latest.value}`)
      .join(';'),
  );

  const data = device.data;
  const reported = useMemo(() => (data ? reportedOf(data, live, setpointText) : null), [data, live, setpointText]);
  const unsentMessages = useMemo(() => data?.settings?.unsentMessages ?? [], [data?.settings?.unsentMessages]);

  useEffect(() => {
    if (reported)
      dispatch({ type: 'LOADED', reported, unsent: settingsMessagesOf(unsentMessages.map((m) => m.message)) });
  }, [reported, unsentMessages]);
  useEffect(() => setUnsentSeen(unsentMessages.length > 0), [unsentMessages.length]);

  const storeAnswer = (answer: DeviceConfigAnswer) =>
    queryClient.setQueryData(deviceQueryKey(answer.device.id), answer.device);

  const apply = async () => {
    if (!data || applying) return;
    const changes = state.draft;
    const request = settingsRequestOf(changes);
    const tzName = changes[settingKey.timeZone];
    setApplying(true);
    dispatch({ type: 'APPLYING' });
    const results: { message: SettingsMessage; outcome: ApplyOutcome }[] = [];
    try {
      let unsent: readonly unknown[] = [];
      if (Object.keys(request).length > 0) {
        const answer = await postDeviceConfig({ id: data.id, props: { settings: request } });
        storeAnswer(answer);
        unsent = answer.unsentMessages ?? [];
        for (const queued of answer.unsentMessages ?? []) {
          for (const message of settingsMessagesOf([queued.message]))
            results.push({ message, outcome: { kind: 'queued' } });
        }
        for (const sent of answer.sentMessages ?? []) {
          for (const message of settingsMessagesOf([sent.message])) results.push({ message, outcome: outcomeOf(sent) });
        }
      }
      if (typeof tzName === 'string') results.push(await writeTimeZone(tzName, unsent));
      dispatch({ type: 'APPLIED', results });
    } catch (error) {
      dispatch({ type: 'APPLY_FAILED', message: serverErrorMessage(error) });
    } finally {
      setApplying(false);
    }
  };

  /** The time-zone write after the Apply answer. */
  const writeTimeZone = async (tzName: string, unsent: readonly unknown[]) => {
    const message = { cmd: 'timeDate' as const, tzName, tzRule: posixTimeZoneRule(tzName) };
    if (timeZoneWriteRoute(isConnected, unsent) === 'realtime') {
      try {
        await realtimeRequest({ type: 'server/timeDate', thingName, tzName, tzRule: message.tzRule });
        return { message, outcome: { kind: 'sent' } as const };
      } catch (error) {
        return { message, outcome: { kind: 'failed', message: errorText(error) } as const };
      }
    }
    const answer = await postMessage({ deviceId, message });
    void queryClient.invalidateQueries({ queryKey: deviceQueryKey(deviceId) });
    return { message, outcome: answer.status === 'queued' ? ({ kind: 'queued' } as const) : outcomeOf(answer.sent) };
  };

  /** Reads a setpoint or register from the device now (the real-time read actions). */
  const read = async (key: string, request: { code: string } | { register: number }) => {
    try {
      const value =
        'code' in request
          ? await realtimeRequest({ type: 'server/readChannel', thingName, code: request.code })
          : await realtimeRequest({ type: 'server/readRegister', thingName, register: request.register });
      if (typeof value === 'number') dispatch({ type: 'LOADED', reported: { [key]: value } });
    } catch (error) {
      showToast('error', errorText(error));
    }
  };

  return {
    state,
    device: data,
    deviceError: device.isError ? serverErrorMessage(device.error) : null,
    isConnected,
    unsentMessages,
    applying,
    edit: (key: string, value: SettingValue) => dispatch({ type: 'EDITED', key, value }),
    apply,
    reset: () => dispatch({ type: 'RESET' }),
    dismissCourtesy: () => dispatch({ type: 'COURTESY_DISMISSED' }),
    read,
  };
}

function errorText(error: unknown): string {
  return error instanceof Error && !('status' in error) ? error.message : serverErrorMessage(error);
}

/** The device's settings as the record and the live configuration report them. */
function reportedOf(device: Device, live: ReturnType<typeof useLiveConfig>, setpointText: string) {
  const channels = new Map(device.channels.map((channel) => [channel.code, channel]));
  for (const channel of live?.channels ?? []) channels.set(channel.code, channel);
  const latest: Record<string, { value: number }> = {};
  for (const channel of device.channels) if (channel.latestLog) latest[channel.code] = channel.latestLog;
  for (const pair of setpointText.split(';').filter(Boolean)) {
    const [code, value] = pair.split('=');
    latest[code!] = { value: Number(value) };
  }
  return reportedSettings({
    channels: [...channels.values()],
    uploadInterval: live?.uploadInterval ?? device.uploadInterval,
    logInterval: live?.logInterval ?? device.logInterval,
    registers: { ...device.registers, ...live?.registers },
    timeDate: live?.timeDate ?? device.timeDate,
    latest,
  });
}
