import { describe, expect, it } from 'vitest';
import {
  alarmSmsText,
  isE164Phone,
  isRetriedSmsStatus,
  maskedPhone,
  phoneCodeSendRefusal,
  phoneCodeText,
  phoneFromInput,
  smsRetryAt,
  type AlarmSmsFacts,
  type PhoneCodeHistory,
} from './sms';

describe('E.164 phone numbers', () => {
  it.each([
    ['+447700900123', true],
    ['+15551234567', true],
    ['+123456789012345', true],
    ['+1234567890123456', false],
    ['+1234567', false],
    ['+0447700900123', false],
    ['447700900123', false],
    ['+44 7700 900123', false],
    ['+44770090012a', false],
    ['', false],
  ])('%s is E.164: %s', (text, valid) => {
    expect(isE164Phone(text)).toBe(valid);
  });

  it.each([
    ['+44 7700 900123', '+447700900123'],
    ['0044 (0)7700-900.123', '+447700900123'],
    ['0044 7700 900123', '+447700900123'],
    ['+1 (555) 123-4567', '+15551234567'],
    ['07700 900123', '07700 900123'],
    ['  +15551234567 ', '+15551234567'],
    ['  07700 900123 ', '07700 900123'],
  ])('reads %j as %j', (typed, phone) => {
    expect(phoneFromInput(typed)).toBe(phone);
  });

  it('masks all but the country code’s first digits and the last two', () => {
    expect(maskedPhone('+447700900123')).toBe('+4477••••••23');
    expect(maskedPhone('+15551234567')).toBe('+1555•••••67');
  });

  it('shows a number too short to mask as it is', () => {
    expect(maskedPhone('+12345')).toBe('+12345');
  });
});

describe('verification code sends', () => {
  const now = 10_000_000;
  const quiet: PhoneCodeHistory = {
    lastSentToUserAt: null,
    sentToUserInLastHour: 0,
    sentToNumberInLastDay: 0,
    sentByInstallationInLastHour: 0,
  };
  it.each<[string, Partial<PhoneCodeHistory>, RegExp | null, number?]>([
    ['nothing sent', {}, null],
    ['last code 59 s ago', { lastSentToUserAt: now - 59_000, sentToUserInLastHour: 1 }, /wait 1 s/, 1],
    ['last code 61 s ago', { lastSentToUserAt: now - 61_000, sentToUserInLastHour: 1 }, null],
    ['last code exactly 60 s ago', { lastSentToUserAt: now - 60_000, sentToUserInLastHour: 1 }, null],
    [
      'three to the user this hour',
      { lastSentToUserAt: now - 600_000, sentToUserInLastHour: 3 },
      /3 codes an hour/,
      3600,
    ],
    ['five to the number today', { sentToNumberInLastDay: 5 }, /too many codes today/, 86_400],
    ['a hundred by the installation', { sentByInstallationInLastHour: 100 }, /Too many codes are being sent/, 3600],
  ])('%s', (_, history, message, retryAfter) => {
    const refusal = phoneCodeSendRefusal({ ...quiet, ...history }, now);
    if (message === null) expect(refusal).toBeNull();
    else {
      expect(refusal?.message).toMatch(message);
      expect(refusal?.retryAfterSeconds).toBe(retryAfter);
    }
  });
});

describe('verification code text', () => {
  it('gives the code first, then what it is for and how long it lasts', () => {
    expect(phoneCodeText('Fieldlink', '123456')).toBe(
      '123456 is your Fieldlink code to receive SMS alerts. It expires in 10 minutes.',
    );
  });
});

describe('alarm SMS text', () => {
  const facts: AlarmSmsFacts = {
    productName: 'Fieldlink',
    severity: 'CRITICAL',
    deviceName: 'Pump house',
    thingName: 'OSC-PUMP01',
    channelName: 'Pressure',
    value: '57 bar',
    condition: 'above 50 bar',
    link: 'https://console.example.com/dash/OSC-PUMP01',
  };
  /** Units as a handset counts them: septets (extension characters 2) or UTF-16 code units. */
  const units = (text: string) =>
    /^[\x20-\x7e£¥èéùìòÇØøÅåÄÖÑÜäöñüà§¿¡É\n]*$/.test(text)
      ? [...text].reduce((sum, char) => sum + ('^{}\\[~]|'.includes(char) ? 2 : 1), 0)
      : text.length;

  it('names the device, the alarm, its value and the device’s page in one segment', () => {
    expect(alarmSmsText(facts)).toBe(
      'Fieldlink CRITICAL alarm: Pump house (OSC-PUMP01) Pressure 57 bar, above 50 bar https://console.example.com/dash/OSC-PUMP01',
    );
  });

  it.each<[string, Partial<AlarmSmsFacts>, number, RegExp]>([
    [
      'a long device name',
      { deviceName: 'North field irrigation pump house number seven by the old barn' },
      160,
      /North field irrigation.*\.\. \(OSC-PUMP01\)/,
    ],
    [
      'long device and channel names',
      {
        deviceName: 'D'.repeat(80),
        channelName: 'Discharge pressure after the second filter stage of the north field line',
      },
      160,
      /DDDDDDDD\.\. \(OSC-PUMP01\) Discharge.*\.\. 57 bar/,
    ],
    ['a name needing UCS-2', { deviceName: 'Насосная станция северного поля номер семь' }, 70, /\.\. \(OSC-PUMP01\)/],
  ])('cuts %s to one segment, keeping value and link', (_, change, limit, shape) => {
    const text = alarmSmsText({ ...facts, ...change, link: 'https://fl.example/dash/OSC-PUMP01' });
    expect(text).toMatch(shape);
    expect(text).toMatch(/57 bar, above 50 bar https:\/\/fl\.example\/dash\/OSC-PUMP01$/);
    if (limit === 160) expect(units(text)).toBeLessThanOrEqual(160);
  });

  describe('at the edge of one GSM-7 segment', () => {
    const link = 'https://fl.example/dash/OSC-PUMP01';
    const whole = (device: string) =>
      `Fieldlink CRITICAL alarm: ${device} (OSC-PUMP01) Pressure 57 bar, above 50 bar ${link}`;
    const room = 160 - whole('').length;

    it('sends 160 septets whole', () => {
      const device = 'P'.repeat(room);
      expect(alarmSmsText({ ...facts, deviceName: device, link })).toBe(whole(device));
    });

    it.each([
      ['161 characters', 'P'.repeat(room + 1)],
      ['160 characters, one of them two septets', `[${'P'.repeat(room - 1)}`],
    ])('cuts the device name of %s to fit', (_, device) => {
      const text = alarmSmsText({ ...facts, deviceName: device, link });
      expect(text).toMatch(/P\.\. \(OSC-PUMP01\)/);
      expect(units(text)).toBeLessThanOrEqual(160);
    });
  });

  it('keeps value and link whole when even short names cannot make one segment, cutting names only as far as the fewest segments need', () => {
    const text = alarmSmsText({ ...facts, deviceName: 'Д'.repeat(40), channelName: 'Ж'.repeat(40) });
    // Names at 8 characters make two UCS-2 segments (134 units): the channel keeps what fits in them.
    expect(text).toBe(
      `Fieldlink CRITICAL alarm: ${'Д'.repeat(8)}.. (OSC-PUMP01) ${'Ж'.repeat(17)}.. 57 bar, above 50 bar https://console.example.com/dash/OSC-PUMP01`,
    );
    expect(text.length).toBeLessThanOrEqual(134);
  });

  // A signed acknowledge link as the server writes one (about 210 characters): never one segment.
  const acknowledgeLink = `https://console.example.com/api/v1/alarm-link?token=${'e'.repeat(124)}.${'S'.repeat(43)}`;

  it('ends with the whole acknowledge link and keeps short names whole when the link alone needs two segments', () => {
    const text = alarmSmsText({ ...facts, link: acknowledgeLink });
    expect(text).toBe(
      `Fieldlink CRITICAL alarm: Pump house (OSC-PUMP01) Pressure 57 bar, above 50 bar ${acknowledgeLink}`,
    );
    expect(units(text)).toBeGreaterThan(160);
    expect(units(text)).toBeLessThanOrEqual(2 * 153);
  });

  it.each<[string, Partial<AlarmSmsFacts>, number, RegExp]>([
    [
      'long device and channel names',
      {
        deviceName: 'D'.repeat(80),
        channelName: 'Discharge pressure after the second filter stage of the north field line',
      },
      2 * 153,
      /DDDDDDDD\.\. \(OSC-PUMP01\) Discharge.*\.\. 57 bar/,
    ],
    [
      'names needing UCS-2',
      { deviceName: 'Д'.repeat(40), channelName: 'Ж'.repeat(40) },
      5 * 67,
      /Д{8}\.\. \(OSC-PUMP01\) Ж{8,}/,
    ],
  ])('cuts %s, not the acknowledge link, to the fewest segments', (_, change, limit, shape) => {
    const text = alarmSmsText({ ...facts, ...change, link: acknowledgeLink });
    expect(text).toMatch(shape);
    expect(text.endsWith(` 57 bar, above 50 bar ${acknowledgeLink}`)).toBe(true);
    expect(units(text)).toBeLessThanOrEqual(limit);
  });
});

describe('SMS retries', () => {
  const now = Date.parse('2026-11-29T22:00:00Z');
  it.each([
    [429, true],
    [500, true],
    [503, true],
    [400, false],
    [401, false],
    [404, false],
    [201, false],
  ])('status %i is retried: %s', (status, retried) => {
    expect(isRetriedSmsStatus(status)).toBe(retried);
  });

  it.each<[number, string | undefined, number | null]>([
    [1, undefined, now + 30_000],
    [2, undefined, now + 120_000],
    [4, undefined, now + 1_800_000],
    [5, undefined, null],
    [1, '120', now + 120_000],
    [1, '5', now + 30_000],
    [1, 'Sun, 29 Nov 2026 22:05:00 GMT', now + 300_000],
    [1, 'soon', now + 30_000],
    [1, '7200', null],
    [1, '3600', now + 3_600_000],
    [1, ' 120 ', now + 120_000],
    [1, '120abc', now + 30_000],
    [1, 'abc120', now + 30_000],
  ])('after attempt %i with Retry-After %j: %j', (attempt, retryAfter, at) => {
    expect(smsRetryAt(attempt, retryAfter, now)).toBe(at);
  });
});
