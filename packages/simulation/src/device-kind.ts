/** The kinds of simulated device, one plant model each (see src/models). */
export const DEVICE_KINDS = ['generic', 'brewTank', 'sprayer', 'waterPlant', 'retailShelf'] as const;
export type DeviceKind = (typeof DEVICE_KINDS)[number];

export function isDeviceKind(text: unknown): text is DeviceKind {
  return typeof text === 'string' && (DEVICE_KINDS as readonly string[]).includes(text);
}
