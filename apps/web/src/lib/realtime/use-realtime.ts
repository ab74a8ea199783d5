import type { LatestValue } from '@fieldlink/api/realtime';
import type { DeviceHealth } from '@fieldlink/api/device-frames';
import { useMemo } from 'react';
import { useStore } from '../use-store';
import { connectionBase, disconnectedCount } from './disconnected-count';
import {
  realtimeStore,
  type ConnectionStatus,
  type DeviceConnectionState,
  type DeviceConfigUpdate,
  type OtaProgress,
} from './realtime-store';

/** Hooks over the real-time store. Each selects one stored object or primitive (see create-store). */

export function useConnectionStatus(): ConnectionStatus {
  return useStore(realtimeStore, (s) => s.status);
}

export function useReconnectAttempt(): number {
  return useStore(realtimeStore, (s) => s.reconnectAttempt);
}

export function useConnectionCount(): number {
  return useStore(realtimeStore, (s) => s.connectionCount);
}

export function useLatestValue(thingName: string, code: string): LatestValue | undefined {
  return useStore(realtimeStore, (s) => s.latest[thingName]?.[code]);
}

export function useDeviceConnection(thingName: string): DeviceConnectionState | undefined {
  return useStore(realtimeStore, (s) => s.connection[thingName]);
}

export function useDeviceHealth(thingName: string): DeviceHealth | undefined {
  return useStore(realtimeStore, (s) => s.health[thingName]);
}

export function useDeviceConfig(thingName: string): DeviceConfigUpdate | undefined {
  return useStore(realtimeStore, (s) => s.config[thingName]);
}

/** How many of the given devices are disconnected, live state first, then the given fallback. */
export function useDisconnectedCount(devices: readonly { thingName: string; isConnected: boolean }[]): number {
  // Counted once per list; each change of the store then costs its live states, not the whole fleet.
  const base = useMemo(() => connectionBase(devices), [devices]);
  return useStore(realtimeStore, (s) => disconnectedCount(base, s.connection));
}

export function useOtaProgress(thingName: string): OtaProgress | undefined {
  return useStore(realtimeStore, (s) => s.ota[thingName]);
}

/** Every device's latest OTA progress pushed so far, by thing name. */
export function useAllOtaProgress(): Readonly<Record<string, OtaProgress>> {
  return useStore(realtimeStore, (s) => s.ota);
}
