import { useCallback, useEffect, useRef, useState } from 'react';
import { CALIBRATION_READ_REGISTERS, calibrationReadout, type CalibrationReadout } from '@fieldlink/domain/brew';
import { realtimeRequest } from '../../../lib/realtime/realtime-connection';
import { realtimeStore } from '../../../lib/realtime/realtime-store';
import { useStore } from '../../../lib/use-store';

const UNREAD: CalibrationReadout = { inputChannel: null, lowCapture: null, highCapture: null, co2Total: null };

/**
 * The calibration screen's registers, read from the controller over the real-time channel: the input
 * being calibrated (INPUT_CHANNEL_REGISTER), the captured low and high points (LOW_CAL_DISPLAY,
 * HIGH_CAL_DISPLAY) and the CO2 total (CO2_TOTAL). Read when the screen opens and again with
 * `reread` after each press (and when the real-time channel comes back); a register the device does
 * not answer stays unread ("–").
 */
export function useCalibrationReadout(thingName: string): { readout: CalibrationReadout; reread: () => void } {
  const [readout, setReadout] = useState<CalibrationReadout>(UNREAD);
  const generation = useRef(0);
  const connected = useStore(realtimeStore, (state) => state.status === 'CONNECTED');
  const reread = useCallback(() => {
    const mine = ++generation.current;
    void (async () => {
      const registers: Record<number, number> = {};
      // One at a time: a device answers its commands in turn, and a refusal ends the round.
      for (const register of CALIBRATION_READ_REGISTERS) {
        try {
          const value = await realtimeRequest({ type: 'server/readRegister', thingName, register });
          if (typeof value === 'number') registers[register] = value;
        } catch {
          break;
        }
      }
      if (mine === generation.current) setReadout(calibrationReadout(registers));
    })();
  }, [thingName]);
  useEffect(() => {
    if (connected) reread();
    return () => {
      generation.current += 1;
    };
  }, [reread, connected]);
  return { readout, reread };
}
