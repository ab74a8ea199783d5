import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import { formatDateTimeInZone } from '@fieldlink/domain/date-format';
import type { Database } from '../../db/schema';
import { findAlarm } from '../alarms/repository';
import { toAlarmRecord } from '../alarms/mapper';
import type { AlarmService } from '../alarms/service';
import { loadUserContext, type ClientOrigin } from '../session/user-context';
import { readerClockOf } from '../users/reader-clock';
import { claimLink, isLinkUsed } from './repository';

/** How long an acknowledge link in a mail, SMS or push notification works: a day. */
export const ALARM_LINK_TTL_MS = 24 * 3_600_000;

interface LinkClaims {
  /** Alarm id. */
  a: string;
  /** User id: the person the link was sent to, who acknowledges with it. */
  u: string;
  /** Expires at, Unix ms. */
  x: number;
  /** 128 random bits: the link's identity once used. */
  n: string;
}

/** What became of a link: shown as a small page, or answered to the service worker as JSON. */
export interface AlarmLinkOutcome {
  status: number;
  acknowledged: boolean;
  title: string;
  message: string;
  /** Set on a link that can still acknowledge: the confirmation button. */
  confirm?: boolean;
  /** The device's page in the console, where the alarm is known (an SMS carries no other link). */
  consolePath?: string;
}

const REFUSED = {
  invalid: 'This link is not valid. Open the console to acknowledge the alarm.',
  expired: 'This link has expired. Open the console to acknowledge the alarm.',
  used: 'This link has already been used. Each acknowledge link works once.',
  gone: 'This alarm no longer exists.',
  notAllowed: 'You may no longer acknowledge this alarm: you need the Alarm Responder permission for its device.',
};

/**
 * Signed one-time acknowledge links (issue 39 item 5): an HMAC-SHA256 of the alarm, the user, the
 * expiry and a nonce, with the installation's own key. Opening one (GET) only shows the alarm and a
 * button; the POST acknowledges, as the user, after their right is checked again, and marks the
 * nonce used in the database so every instance refuses it afterwards.
 */
export class AlarmLinks {
  constructor(
    private readonly options: {
      db: Kysely<Database>;
      secret: string;
      publicUrl: string;
      now: () => number;
    },
  ) {}

  /** The link sent to this user about this alarm. */
  urlFor(alarmId: string, userId: string): string {
    const claims: LinkClaims = {
      a: alarmId,
      u: userId,
      x: this.options.now() + ALARM_LINK_TTL_MS,
      n: randomBytes(16).toString('base64url'),
    };
    const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
    return `${this.options.publicUrl}/api/v1/alarm-link?token=${payload}.${this.sign(payload)}`;
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.options.secret).update(payload).digest('base64url');
  }

  private verify(token: string): LinkClaims | null {
    const [payload, signature, ...rest] = token.split('.');
    if (!payload || !signature || rest.length > 0) return null;
    const expected = Buffer.from(this.sign(payload));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    try {
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as LinkClaims;
      const valid =
        typeof claims.a === 'string' &&
        typeof claims.u === 'string' &&
        typeof claims.n === 'string' &&
        Number.isSafeInteger(claims.x);
      return valid ? claims : null;
    } catch {
      return null;
    }
  }

  /** Checks a link without using it: the GET's confirmation page. */
  async inspect(token: string): Promise<AlarmLinkOutcome> {
    const checked = await this.check(token);
    if ('status' in checked) return checked;
    const { alarm, user } = checked;
    const record = toAlarmRecord(alarm);
    const raisedAt = formatDateTimeInZone(record.raisedAt, readerClockOf(user.clock));
    const consolePath = devicePage(record.thingName);
    if (record.acknowledgedAt !== null) {
      return {
        status: 200,
        acknowledged: true,
        title: 'Already acknowledged',
        message: 'Somebody has acknowledged this alarm already.',
        consolePath,
      };
    }
    return {
      status: 200,
      acknowledged: false,
      title: `Alarm (${record.severity}): ${record.deviceName}`,
      message: `${record.channelName} (${record.code}), raised ${raisedAt}. Acknowledge it as ${user.email}?`,
      confirm: true,
      consolePath,
    };
  }

  /** Acknowledges with a link: once, as its user, "from a link" in the audit trail. */
  async acknowledge(token: string, origin: ClientOrigin, alarms: AlarmService): Promise<AlarmLinkOutcome> {
    const checked = await this.check(token);
    if ('status' in checked) return checked;
    const { claims, alarm, user } = checked;
    user.origin = { ...origin, client: `from a link; ${origin.client}` };
    try {
      await alarms.acknowledge(user, { ids: [claims.a] });
    } catch {
      return refused(403, REFUSED.notAllowed);
    }
    const first = await claimLink(this.options.db, {
      nonce: claims.n,
      alarmId: claims.a,
      userId: claims.u,
      at: this.options.now(),
    });
    if (!first) return refused(410, REFUSED.used);
    const consolePath = devicePage(alarm.thing_name);
    if (alarm.acknowledged_at !== null) {
      return {
        status: 200,
        acknowledged: true,
        title: 'Already acknowledged',
        message: 'Somebody had acknowledged this alarm already.',
        consolePath,
      };
    }
    return {
      status: 200,
      acknowledged: true,
      title: 'Alarm acknowledged',
      message: `Acknowledged as ${user.email}. Reminders and escalation stop.`,
      consolePath,
    };
  }

  private async check(token: string) {
    const claims = this.verify(token);
    if (!claims) return refused(400, REFUSED.invalid);
    if (claims.x <= this.options.now()) return refused(410, REFUSED.expired);
    if (await isLinkUsed(this.options.db, claims.n)) return refused(410, REFUSED.used);
    const alarm = await findAlarm(this.options.db, claims.a);
    if (!alarm) return refused(404, REFUSED.gone);
    const user = await loadUserContext(this.options.db, {
      userId: claims.u,
      jti: `alarm-link:${claims.n}`,
      tokenVersion: 0,
      expiresAt: claims.x,
    });
    if (!user) return refused(403, REFUSED.notAllowed);
    return { claims, alarm, user };
  }
}

const devicePage = (thingName: string) => `/dash/${encodeURIComponent(thingName)}`;

function refused(status: number, message: string): AlarmLinkOutcome {
  return { status, acknowledged: false, title: 'Link refused', message };
}
