import { useState } from 'react';
import { REALTIME_TIMEOUT_MESSAGE } from '@fieldlink/api/realtime';
import { realtimeRequest } from '../../../lib/realtime/realtime-connection';

/** A write in flight or its failure; the written value itself comes back from the device's log. */
export type WriteState =
  { status: 'idle' } | { status: 'pending'; value: number } | { status: 'error'; message: string };

/**
 * Writes a channel (setpoint, relay, flag) over the real-time channel. The device answers with the
 * value it now holds and publishes it; a device that is offline or silent ends in the specification's
 * "Timeout when waiting for response.", a refusal in "Command Failed.".
 */
export function useChannelWrite(thingName: string, code: string) {
  const [state, setState] = useState<WriteState>({ status: 'idle' });
  const write = async (value: number) => {
    setState({ status: 'pending', value });
    try {
      await realtimeRequest({ type: 'server/writeChannel', thingName, code, value });
      setState({ status: 'idle' });
    } catch (error) {
      setState({ status: 'error', message: error instanceof Error ? error.message : REALTIME_TIMEOUT_MESSAGE });
    }
  };
  return { state, write, clear: () => setState({ status: 'idle' }) };
}
