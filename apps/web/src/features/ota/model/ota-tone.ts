import type { OtaState } from '@fieldlink/domain/ota';
import type { BadgeTone } from '../../../components/ui/badge';

const OTA_STATE_TONES: Partial<Record<OtaState, BadgeTone>> = {
  AWAITING_APPROVAL: 'warning',
  SUCCEEDED: 'success',
  FAILED: 'danger',
  CANCELLED: 'neutral',
};

/** The badge tone of an OTA update's state: in flight reads as information. */
export function otaStateTone(state: OtaState): BadgeTone {
  return OTA_STATE_TONES[state] ?? 'info';
}
