import type { DeviceMessageAnswer, DeviceMessageBody } from '@fieldlink/api/device';
import { apiPost } from '../../../lib/api-client';

/** `POST /message` (core §7): one message for a device, sent now or queued while it is offline. */
export const postMessage = (body: DeviceMessageBody) => apiPost<DeviceMessageAnswer>('/message', body);
