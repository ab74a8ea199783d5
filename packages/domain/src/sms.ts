/**
 * SMS alerts (issue 39 item 4): the phone number rule, its verification code's limits, the alarm
 * message's text and when a failed send is tried again. Pure: the server and the console import these.
 */

/**
 * A phone number in E.164: `+`, a country code that does not begin with 0, and at most 15 digits in
 * all (ITU-T E.164 §6). Eight digits at least: no country's full numbers are shorter.
 */
export const PHONE_PATTERN = '^\\+[1-9][0-9]{7,14}$';

const PHONE = new RegExp(PHONE_PATTERN);

/** Whether the text is a phone number in E.164 form. */
export function isE164Phone(text: string): boolean {
  return PHONE.test(text);
}

/**
 * What a person typed, in E.164 when it can be read as such: spaces, dots, dashes and brackets go, and
 * an international `00` prefix becomes `+`. Anything else (a national number without its country
 * code) comes back as typed, for the server to refuse with the rule's message.
 */
export function phoneFromInput(text: string): string {
  // `(0)`: the national trunk prefix written beside the country code, never dialled with it.
  const compact = text
    .trim()
    .replace(/\(0\)/g, '')
    .replace(/[\s().-]/g, '');
  const international = compact.startsWith('00') ? `+${compact.slice(2)}` : compact;
  return isE164Phone(international) ? international : text.trim();
}

/** The refusal of a number that is not E.164, for the 400 answer and the console. */
export const PHONE_RULE_MESSAGE =
  'Enter the phone number in international form: + and the country code, then the number (for example +447700900123).';

/**
 * A number as the audit trail and other people's screens show it: the country code's first digits and
 * the last two, the rest hidden (`+4477•••••23`), so the trail says which number without giving it away.
 */
export function maskedPhone(phone: string): string {
  if (phone.length <= 6) return phone;
  return `${phone.slice(0, 5)}${'•'.repeat(phone.length - 7)}${phone.slice(-2)}`;
}

/** Limits of verification codes (docs/decisions.md, issue 39 item 4). */
export const PHONE_CODE_LIMITS = {
  /** Digits of a code. */
  digits: 6,
  /** A code is good this long after it was sent. */
  ttlMs: 10 * 60_000,
  /** Wrong codes one code takes before it is void (a new one must be asked for). */
  attemptsPerCode: 5,
  /** A further code for the same user only this long after the last. */
  resendAfterMs: 60_000,
  /** Codes one user may be sent in an hour, over all numbers. */
  sendsPerUserPerHour: 3,
  /** Codes one number may be sent in a day, whoever asks (SMS pumping: one number, many accounts). */
  sendsPerNumberPerDay: 5,
  /** Codes the whole installation sends in an hour (SMS pumping: many numbers, many accounts). */
  sendsPerInstallationPerHour: 100,
} as const;

/** Codes sent recently, as the server counts them from its table (cluster-wide, restart-proof). */
export interface PhoneCodeHistory {
  /** When the user was last sent a code, or null. */
  lastSentToUserAt: number | null;
  sentToUserInLastHour: number;
  sentToNumberInLastDay: number;
  sentByInstallationInLastHour: number;
}

/** Why no code may be sent now, with seconds to wait, or null when one may. */
export function phoneCodeSendRefusal(
  history: PhoneCodeHistory,
  now: number,
): { message: string; retryAfterSeconds: number } | null {
  const limits = PHONE_CODE_LIMITS;
  if (history.lastSentToUserAt !== null && now - history.lastSentToUserAt < limits.resendAfterMs) {
    const seconds = Math.ceil((history.lastSentToUserAt + limits.resendAfterMs - now) / 1000);
    return {
      message: `A code was sent a moment ago. Please wait ${seconds} s before asking for another.`,
      retryAfterSeconds: seconds,
    };
  }
  if (history.sentToUserInLastHour >= limits.sendsPerUserPerHour) {
    return {
      message: `At most ${limits.sendsPerUserPerHour} codes an hour. Please try again later.`,
      retryAfterSeconds: 3600,
    };
  }
  if (history.sentToNumberInLastDay >= limits.sendsPerNumberPerDay) {
    return {
      message: 'This number has been sent too many codes today. Please try again tomorrow.',
      retryAfterSeconds: 86_400,
    };
  }
  if (history.sentByInstallationInLastHour >= limits.sendsPerInstallationPerHour) {
    return { message: 'Too many codes are being sent. Please try again later.', retryAfterSeconds: 3600 };
  }
  return null;
}

/** The text of a verification code's SMS. */
export function phoneCodeText(productName: string, code: string): string {
  return `${code} is your ${productName} code to receive SMS alerts. It expires in ${PHONE_CODE_LIMITS.ttlMs / 60_000} minutes.`;
}

// GSM 03.38: the basic set (one septet each) and the extension table (two septets each, escape + char).
const GSM7_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM7_EXTENSION = '^{}\\[~]|€\f';

/**
 * Characters an SMS segment holds: 160 in GSM-7, 70 when any character needs UCS-2; in a message of
 * several segments each holds 153 or 67 (the rest carries the concatenation header).
 */
const SEGMENT = { gsm7: 160, ucs2: 70 } as const;
const CONCATENATED_SEGMENT = { gsm7: 153, ucs2: 67 } as const;

/** The length of a text in its SMS encoding's units, and that encoding. */
function smsLength(text: string): { encoding: 'gsm7' | 'ucs2'; units: number } {
  let septets = 0;
  for (const char of text) {
    if (GSM7_BASIC.includes(char)) septets += 1;
    else if (GSM7_EXTENSION.includes(char)) septets += 2;
    else return { encoding: 'ucs2', units: text.length };
  }
  return { encoding: 'gsm7', units: septets };
}

/** Segments a text is sent as. */
function smsSegments(text: string): number {
  const { encoding, units } = smsLength(text);
  return units <= SEGMENT[encoding] ? 1 : Math.ceil(units / CONCATENATED_SEGMENT[encoding]);
}

/** Units `segments` segments hold in an encoding. */
function capacity(encoding: 'gsm7' | 'ucs2', segments: number): number {
  return segments === 1 ? SEGMENT[encoding] : segments * CONCATENATED_SEGMENT[encoding];
}

/** Shortened to `units` (in the text's encoding) with `..` at the end; never below `floor` characters. */
function shortened(text: string, units: number, floor: number): string {
  const chars = [...text];
  if (chars.length <= floor) return text;
  let keep = Math.max(floor, Math.min(chars.length, units) - 2);
  while (keep > floor && smsLength(chars.slice(0, keep).join('')).units > units - 2) keep -= 1;
  return keep >= chars.length ? text : `${chars.slice(0, keep).join('').trimEnd()}..`;
}

/** What an alarm SMS says. */
export interface AlarmSmsFacts {
  productName: string;
  severity: string;
  deviceName: string;
  thingName: string;
  channelName: string;
  /** The value as the console shows it, with its unit (`57 bar`). */
  value: string;
  /** How the limit was crossed (`above 50 bar`). */
  condition: string;
  /**
   * The link the message ends with: the person's one-time acknowledge link, whose page names the
   * alarm and opens the device in the console (issue 39 item 5).
   */
  link: string;
}

/** Characters a name is never cut below. */
const NAME_FLOOR = 8;

/**
 * The SMS of a raised alarm, in as few segments as its parts allow: one (160 GSM-7 characters, or 70
 * when a name needs UCS-2) where it can be, else as few as the link leaves (docs/decisions.md). Names
 * give way first (the device's name, then the channel's, cut with `..`, never below 8 characters) and
 * only as far as that takes; the product, severity, thing name, value, condition and link are never
 * cut, so a signed acknowledge link always arrives whole.
 */
export function alarmSmsText(facts: AlarmSmsFacts): string {
  const compose = (device: string, channel: string) =>
    `${facts.productName} ${facts.severity} alarm: ${device} (${facts.thingName}) ${channel} ${facts.value}, ${facts.condition} ${facts.link}`;
  const full = compose(facts.deviceName, facts.channelName);
  const measured = smsLength(full);
  const fewest = smsSegments(
    compose(shortened(facts.deviceName, 0, NAME_FLOOR), shortened(facts.channelName, 0, NAME_FLOOR)),
  );
  const limit = capacity(measured.encoding, fewest);
  if (measured.units <= limit) return full;
  const over = measured.units - limit;
  const deviceUnits = smsLength(facts.deviceName).units;
  const device = shortened(facts.deviceName, deviceUnits - over, NAME_FLOOR);
  const stillOver = smsLength(compose(device, facts.channelName)).units - limit;
  if (stillOver <= 0) return compose(device, facts.channelName);
  const channel = shortened(facts.channelName, smsLength(facts.channelName).units - stillOver, NAME_FLOOR);
  return compose(device, channel);
}

/** Sends of one alarm SMS at most, the first included. */
export const SMS_MAX_ATTEMPTS = 5;

/** Waits after failed attempt 1, 2, 3, 4: half a minute, then 2, 10 and 30 minutes. */
const SMS_RETRY_DELAYS_MS = [30_000, 120_000, 600_000, 1_800_000];

/** The longest `Retry-After` honoured: an alarm SMS later than this is better dropped and said so. */
const SMS_MAX_RETRY_AFTER_MS = 3_600_000;

/** Whether an SMS gateway's answer is worth trying again: 429 (slow down) and 5xx (away); never another 4xx. */
export function isRetriedSmsStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

/**
 * When failed attempt `attempt` (1 for the first) is tried again, or null when it is not: the back-off
 * above, or the gateway's `Retry-After` (seconds or an HTTP date) when that is later, up to an hour.
 */
export function smsRetryAt(attempt: number, retryAfter: string | undefined, now: number): number | null {
  if (attempt >= SMS_MAX_ATTEMPTS) return null;
  const backoff = SMS_RETRY_DELAYS_MS[Math.min(attempt, SMS_RETRY_DELAYS_MS.length) - 1]!;
  let asked = 0;
  if (retryAfter !== undefined && retryAfter.trim() !== '') {
    const text = retryAfter.trim();
    asked = /^\d+$/.test(text) ? Number(text) * 1000 : Math.max(0, (Date.parse(text) || now) - now);
  }
  if (asked > SMS_MAX_RETRY_AFTER_MS) return null;
  return now + Math.max(backoff, asked);
}
