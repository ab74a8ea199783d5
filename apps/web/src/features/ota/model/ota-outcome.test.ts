import { describe, expect, it } from 'vitest';
import type { OtaItemResult } from '@fieldlink/api/ota';
import { otaOutcome, submittedText } from './ota-outcome';

const names = new Map([
  ['d1', 'Boiler 1'],
  ['d2', 'Boiler 2'],
]);

describe('otaOutcome', () => {
  it.each<[string, string[], OtaItemResult[], ReturnType<typeof otaOutcome>]>([
    [
      'all held for approval',
      ['d1', 'd2'],
      [
        { deviceId: 'd1', updateId: 'u1', state: 'AWAITING_APPROVAL' },
        { deviceId: 'd2', updateId: 'u2', state: 'AWAITING_APPROVAL' },
      ],
      { accepted: 2, awaitingApproval: 2, failures: [] },
    ],
    [
      'a failed item is the device asked for at its position',
      ['d1', 'd2', 'gone'],
      [
        { deviceId: 'd1', updateId: 'u1', state: 'QUEUED' },
        { error: { message: 'The device already has an OTA update in progress.' } },
        { error: { message: 'Device not found.' } },
      ],
      {
        accepted: 1,
        awaitingApproval: 0,
        failures: [
          { deviceId: 'd2', name: 'Boiler 2', message: 'The device already has an OTA update in progress.' },
          { deviceId: 'gone', name: 'gone', message: 'Device not found.' },
        ],
      },
    ],
    [
      'a missing item or an empty message reads as the catalogue’s failure',
      ['d1', 'd2'],
      [{ error: { message: '' } }],
      {
        accepted: 0,
        awaitingApproval: 0,
        failures: [
          { deviceId: 'd1', name: 'Boiler 1', message: 'Failed to submit OTA update' },
          { deviceId: 'd2', name: 'Boiler 2', message: 'Failed to submit OTA update' },
        ],
      },
    ],
  ])('%s', (_label, ids, answer, outcome) => expect(otaOutcome(ids, answer, (id) => names.get(id))).toEqual(outcome));

  it.each([
    [
      { accepted: 1, awaitingApproval: 1, failures: [] },
      'OTA update submitted for 1 device. It waits for an administrator’s approval.',
    ],
    [{ accepted: 3, awaitingApproval: 0, failures: [] }, 'OTA update sent to 3 devices.'],
  ])('says %j as %s', (outcome, text) => expect(submittedText(outcome)).toBe(text));
});
