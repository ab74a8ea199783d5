import { isRetriedSmsStatus } from '@fieldlink/domain/sms';
import type { SmsSettings } from '../../config';
import { OutboundRefusedError, sendOutbound, type OutboundPolicy } from '../../security/outbound-url';

/** What became of one SMS handed to the gateway. */
export type SmsOutcome =
  | { kind: 'sent'; status: number; sid: string | null }
  /** Worth trying again: the gateway is away or failing (5xx), asks to slow down (429), or did not answer. */
  | { kind: 'retry'; status: number | null; reason: string; retryAfter?: string }
  /** Never worth repeating: the gateway refused the message (another 4xx), or its address is refused. */
  | { kind: 'refused'; status: number | null; reason: string };

/** How long the gateway has to answer. */
const SMS_TIMEOUT_MS = 10_000;

/** A Twilio answer is about 1 KB; its `sid` comes late in it. */
const ANSWER_BYTES = 16 * 1024;

/** The gateway's own words from an error answer (`{"code": 21211, "message": "..."}`), else the excerpt. */
function gatewayReason(status: number, excerpt: string): string {
  try {
    const answer = JSON.parse(excerpt) as { code?: unknown; message?: unknown };
    if (typeof answer.message === 'string') {
      return `The SMS service answered ${status}: ${answer.message}${answer.code === undefined ? '' : ` (code ${String(answer.code)})`}`;
    }
  } catch {
    // Not JSON: the excerpt says what there is.
  }
  return `The SMS service answered ${status}: ${excerpt.slice(0, 200)}`;
}

/**
 * Sends SMS through a Twilio-compatible Messages API (`POST {base}/2010-04-01/Accounts/{sid}/Messages.json`,
 * form-encoded `To`, `From` or `MessagingServiceSid`, `Body`; HTTP Basic auth with the account SID and
 * token). The call goes through the outbound guard like webhooks (SECURITY.md 27).
 */
export class SmsSender {
  private readonly url: string;
  private readonly authorization: string;

  constructor(
    private readonly settings: SmsSettings,
    private readonly policy: OutboundPolicy,
  ) {
    this.url = `${settings.baseUrl}/2010-04-01/Accounts/${encodeURIComponent(settings.accountSid)}/Messages.json`;
    this.authorization = `Basic ${Buffer.from(`${settings.accountSid}:${settings.authToken}`).toString('base64')}`;
  }

  async send(to: string, body: string): Promise<SmsOutcome> {
    const form = new URLSearchParams({ To: to });
    if (this.settings.messagingServiceSid) form.set('MessagingServiceSid', this.settings.messagingServiceSid);
    else form.set('From', this.settings.from!);
    form.set('Body', body);
    try {
      const answer = await sendOutbound({
        url: this.url,
        headers: {
          authorization: this.authorization,
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
          'user-agent': 'Fieldlink-SMS/1',
        },
        body: Buffer.from(form.toString()),
        timeoutMs: SMS_TIMEOUT_MS,
        policy: this.policy,
        excerptBytes: ANSWER_BYTES,
      });
      if (answer.status >= 200 && answer.status < 300) {
        let sid: string | null = null;
        try {
          const parsed = (JSON.parse(answer.excerpt) as { sid?: unknown }).sid;
          sid = typeof parsed === 'string' ? parsed.slice(0, 64) : null;
        } catch {
          sid = null;
        }
        return { kind: 'sent', status: answer.status, sid };
      }
      const reason = gatewayReason(answer.status, answer.excerpt);
      if (isRetriedSmsStatus(answer.status)) {
        return {
          kind: 'retry',
          status: answer.status,
          reason,
          ...(answer.retryAfter && { retryAfter: answer.retryAfter }),
        };
      }
      return { kind: 'refused', status: answer.status, reason };
    } catch (error) {
      if (error instanceof OutboundRefusedError) return { kind: 'refused', status: null, reason: error.message };
      return { kind: 'retry', status: null, reason: error instanceof Error ? error.message : String(error) };
    }
  }
}
