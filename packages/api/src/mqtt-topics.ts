/**
 * MQTT topic layout of the device protocol (docs/device-protocol.md).
 * A device publishes frames to `dev/{thingName}/up` and receives commands on `dev/{thingName}/down`.
 */

/** Thing names: letters, digits, `_` and `-`, 3 to 64 characters. No MQTT wildcards or separators. */
export const THING_NAME_PATTERN = '^[A-Za-z0-9_-]{3,64}$';
const THING_NAME_RE = new RegExp(THING_NAME_PATTERN);

/** Topic filter the server subscribes to for every device's frames. */
export const DEVICE_UP_FILTER = 'dev/+/up';

/** True when the text is a valid thing name (no `+`, `#`, `/` or other characters that widen a topic). */
export function isThingName(text: string): boolean {
  return THING_NAME_RE.test(text);
}

/** Topic a device publishes its frames to. */
export function deviceUpTopic(thingName: string): string {
  return `dev/${thingName}/up`;
}

/** Topic a device receives its commands on. */
export function deviceDownTopic(thingName: string): string {
  return `dev/${thingName}/down`;
}

/** The thing name of an up topic, or null when the topic is not a device up topic. */
export function thingNameFromUpTopic(topic: string): string | null {
  const parts = topic.split('/');
  if (parts.length !== 3 || parts[0] !== 'dev' || parts[2] !== 'up') return null;
  const thingName = parts[1] ?? '';
  return isThingName(thingName) ? thingName : null;
}
