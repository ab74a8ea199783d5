/**
 * A request of the process that started this one, over Node's IPC channel: the time of a simulated
 * device's clock, moved forward to `advanceToMs` first when given, and the value of its `register`
 * there when asked. The e2e harness sends it (`RunningServer.deviceClock`), so a test reaches a
 * sprayer's scheduled minute at once instead of waiting for it in real time (issue 37 item 7), and
 * sees at once what a device's own clock did to a register (a brewing tank's vat status).
 */
export interface DeviceClockRequest {
  type: 'fieldlink/device-clock';
  id: number;
  thingName: string;
  advanceToMs?: number;
  register?: number;
}

/** The answer: the device's time (and the register's value, null when it has none), or why there is none. */
export type DeviceClockAnswer = { type: 'fieldlink/device-clock'; id: number } & (
  { timeMs: number; registerValue?: number | null } | { error: string }
);

/** What this needs of the demo fleet (kept structural: the server imports the simulator in main.ts only). */
interface ClockedFleet {
  device(
    thingName: string,
  ): { advanceClockTo(timeMs: number): number; readRegister(register: number): number | undefined } | undefined;
}

const isRequest = (message: unknown): message is DeviceClockRequest =>
  typeof message === 'object' &&
  message !== null &&
  (message as { type?: unknown }).type === 'fieldlink/device-clock' &&
  typeof (message as { id?: unknown }).id === 'number' &&
  typeof (message as { thingName?: unknown }).thingName === 'string';

/** Answers one request (pure apart from the clock it moves). */
export function answerDeviceClock(fleet: ClockedFleet, request: DeviceClockRequest): DeviceClockAnswer {
  const device = fleet.device(request.thingName);
  if (!device) return { type: request.type, id: request.id, error: `No simulated device ${request.thingName}` };
  const timeMs = device.advanceClockTo(request.advanceToMs ?? 0);
  if (request.register === undefined) return { type: request.type, id: request.id, timeMs };
  return { type: request.type, id: request.id, timeMs, registerValue: device.readRegister(request.register) ?? null };
}

/**
 * Answers device-clock requests of the parent process. Only a process that started this one with an
 * IPC channel can send them (a service manager or a shell opens none), and that process controls this
 * one entirely already: nothing is reachable over the network. Without the channel it does nothing.
 */
export function answerDeviceClockRequests(fleet: ClockedFleet, channel: NodeJS.Process = process): void {
  const send = channel.send?.bind(channel);
  if (!send) return;
  channel.on('message', (message: unknown) => {
    if (isRequest(message)) send(answerDeviceClock(fleet, message));
  });
  // The channel must not keep a stopping server alive.
  channel.channel?.unref();
}
