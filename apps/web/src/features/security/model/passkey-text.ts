/**
 * Where a passkey lives, in words, from the transports its browser reported when it was added:
 * `internal` is the device's own screen lock, `hybrid` a phone reached by QR code, the rest a key.
 */
export function passkeyPlaceOf(transports: readonly string[]): string {
  if (transports.includes('internal')) return 'This kind of device';
  if (transports.includes('hybrid')) return 'A phone';
  if (transports.some((t) => ['usb', 'nfc', 'ble', 'smart-card'].includes(t))) return 'A security key';
  return 'Unknown';
}
