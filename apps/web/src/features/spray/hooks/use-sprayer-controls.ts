import { SPRAYER_CHANNELS as CH } from '@fieldlink/domain/spray';
import { useConfirmedCommand } from '../../../components/operate/use-confirmed-command';
import { useChannelWrite } from '../../../lib/realtime/use-channel-write';
import { useDeviceActionRefusal } from '../../../lib/session/use-can';
import { sprayCommand, type SprayCommandKind, type SprayerReadings } from '../model/sprayer-card';

/**
 * A sprayer card's commands: who may send them (the domain's device action table, which the server
 * checks too: sprays and skip are channel writes, schedules register writes), each confirmed first
 * and then written over the real-time channel, and the state of the writes.
 */
export function useSprayerControls(thingName: string, deviceName: string, readings: SprayerReadings) {
  const operateRefusal = useDeviceActionRefusal('writeChannel');
  const configureRefusal = useDeviceActionRefusal('writeRegister');
  const manual = useChannelWrite(thingName, CH.manualSprayControl);
  const test = useChannelWrite(thingName, CH.testSpray);
  const skip = useChannelWrite(thingName, CH.skipSprayActive);
  const writes = { [CH.manualSprayControl]: manual, [CH.testSpray]: test, [CH.skipSprayActive]: skip };
  const all = [manual, test, skip];
  const { ask, dialog } = useConfirmedCommand();
  const run = (kind: SprayCommandKind) => {
    const { value, ...command } = sprayCommand(kind, readings);
    ask({ ...command, device: deviceName, send: () => void writes[command.code].write(value) });
  };
  return {
    operateRefusal,
    configureRefusal,
    canOperate: operateRefusal === null,
    canConfigure: configureRefusal === null,
    run,
    /** The confirmation, while one is asked. */
    dialog,
    busy: all.some((write) => write.state.status === 'pending'),
    done: all.some((write) => write.state.status === 'done'),
    failure: all.find((write) => write.state.status === 'error')?.state,
    /** The manual spray zone being sent, or null. */
    sendingZone: manual.state.status === 'pending' ? manual.state.value : null,
    testing: test.state.status === 'pending',
    dismiss: () => all.forEach((write) => write.clear()),
  };
}

export type SprayerControls = ReturnType<typeof useSprayerControls>;
