import { isFailedItem, OTA_SUBMIT_FAILED_MESSAGE, type OtaItemResult } from '@fieldlink/api/ota';

/** One device the call could not act on, named for the person. */
export interface OtaFailure {
  deviceId: string;
  name: string;
  message: string;
}

export interface OtaOutcome {
  /** Devices the call acted on. */
  accepted: number;
  /** Of those, updates held for an administrator's approval. */
  awaitingApproval: number;
  failures: OtaFailure[];
}

/**
 * Reads an answer of one item per requested device (application §7: items with `error.message` are
 * failures). Items come in the order of the request; a failed item names no device, so its device is
 * the one asked for at that position.
 */
export function otaOutcome(
  deviceIds: readonly string[],
  answer: readonly OtaItemResult[],
  nameOf: (deviceId: string) => string | undefined,
): OtaOutcome {
  const outcome: OtaOutcome = { accepted: 0, awaitingApproval: 0, failures: [] };
  deviceIds.forEach((deviceId, index) => {
    const item = answer[index];
    if (!item || isFailedItem(item)) {
      outcome.failures.push({
        deviceId,
        name: nameOf(deviceId) ?? deviceId,
        message: item?.error.message || OTA_SUBMIT_FAILED_MESSAGE,
      });
      return;
    }
    outcome.accepted += 1;
    if (item.state === 'AWAITING_APPROVAL') outcome.awaitingApproval += 1;
  });
  return outcome;
}

/** The toast after a submission every device accepted. */
export function submittedText(outcome: OtaOutcome): string {
  const devices = outcome.accepted === 1 ? '1 device' : `${outcome.accepted} devices`;
  return outcome.awaitingApproval > 0
    ? `OTA update submitted for ${devices}. It waits for an administrator’s approval.`
    : `OTA update sent to ${devices}.`;
}
