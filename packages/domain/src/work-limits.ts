import { isWithinMaxCount } from './channels';

/**
 * Limits on the work a user can start and the things a user can make the server keep (issue 34,
 * item 8; SECURITY.md 21: no queue a user can fill is unbounded). Each is counted in the database
 * inside the transaction that adds the new item, so it holds under parallel requests and across the
 * instances of a cluster; a request past one is answered 429 naming the limit. The values and why
 * are in docs/decisions.md, "Quotas on stored work".
 */

/** What a limit counts per. */
export type WorkLimitScope = 'user' | 'account' | 'device';

export interface WorkLimit {
  /** The most that may exist (or run) at once; a request for one more is refused. */
  max: number;
  /** What is counted, as a person reads it (plural). */
  what: string;
  per: WorkLimitScope;
  /**
   * Seconds after which trying again may succeed by itself (work in flight finishes); null for
   * things that stay until someone removes them (or retention does).
   */
  retryAfterSeconds: number | null;
  /** What the person can do about it. */
  hint: string;
}

/**
 * Reports and batch reports generating: a report is polled every 10 seconds (application §9), so a
 * retry after 10 s meets the next state. Kept: enough for years of daily reports of a team.
 */
export const WORK_LIMITS = {
  reportsInFlightPerUser: {
    max: 5,
    what: 'reports generating at a time',
    per: 'user',
    retryAfterSeconds: 10,
    hint: 'Please wait until one is ready.',
  },
  reportsInFlightPerAccount: {
    max: 20,
    what: 'reports generating at a time',
    per: 'account',
    retryAfterSeconds: 10,
    hint: 'Please wait until one is ready.',
  },
  reportsKeptPerUser: {
    max: 500,
    what: 'reports kept',
    per: 'user',
    retryAfterSeconds: null,
    hint: 'Delete reports you no longer need to make room.',
  },
  reportsKeptPerAccount: {
    max: 2000,
    what: 'reports kept',
    per: 'account',
    retryAfterSeconds: null,
    hint: 'Delete reports no longer needed to make room.',
  },
  batchReportsInFlightPerUser: {
    max: 3,
    what: 'batch reports generating at a time',
    per: 'user',
    retryAfterSeconds: 10,
    hint: 'Please wait until one is ready.',
  },
  batchReportsInFlightPerAccount: {
    max: 10,
    what: 'batch reports generating at a time',
    per: 'account',
    retryAfterSeconds: 10,
    hint: 'Please wait until one is ready.',
  },
  batchReportsKeptPerUser: {
    max: 200,
    what: 'batch reports kept',
    per: 'user',
    retryAfterSeconds: null,
    hint: 'Older batch reports are removed after the retention period.',
  },
  batchReportsKeptPerAccount: {
    max: 1000,
    what: 'batch reports kept',
    per: 'account',
    retryAfterSeconds: null,
    hint: 'Older batch reports are removed after the retention period.',
  },
  schedulesPerUser: {
    max: 25,
    what: 'report schedules',
    per: 'user',
    retryAfterSeconds: null,
    hint: 'Delete a schedule you no longer need to make room.',
  },
  schedulesPerAccount: {
    max: 100,
    what: 'report schedules',
    per: 'account',
    retryAfterSeconds: null,
    hint: 'Delete a schedule no longer needed to make room.',
  },
  queuedMessagesPerDevice: {
    max: 50,
    what: 'messages queued',
    per: 'device',
    retryAfterSeconds: null,
    hint: 'They are sent when the device connects; a new value for the same setting replaces the queued one.',
  },
} as const satisfies Record<string, WorkLimit>;

export type WorkLimitName = keyof typeof WORK_LIMITS;

/** A refusal: the limit reached, its value, the text shown and when a retry may succeed. */
export interface WorkLimitRefusal {
  limit: WorkLimitName;
  max: number;
  message: string;
  retryAfterSeconds: number | null;
}

/** The text of a refusal: the limit with its value, then what to do (`… Please try again in 10 seconds.`). */
export function workLimitMessage(name: WorkLimitName): string {
  const limit: WorkLimit = WORK_LIMITS[name];
  const retry = limit.retryAfterSeconds === null ? '' : ` Please try again in ${limit.retryAfterSeconds} seconds.`;
  return `Limit reached: at most ${limit.max} ${limit.what} per ${limit.per}. ${limit.hint}${retry}`;
}

/**
 * The first of the given limits that the counts after the request would pass, in the order given, or
 * null when the request keeps within all of them. Each count is what there would be with the request
 * done (a new report: the current count plus one; queued messages: those left after replacements).
 */
export function workLimitRefusal(
  countsAfter: ReadonlyArray<readonly [WorkLimitName, number]>,
): WorkLimitRefusal | null {
  for (const [name, count] of countsAfter) {
    const limit: WorkLimit = WORK_LIMITS[name];
    if (count > limit.max) {
      return {
        limit: name,
        max: limit.max,
        message: workLimitMessage(name),
        retryAfterSeconds: limit.retryAfterSeconds,
      };
    }
  }
  return null;
}

/**
 * The channel code of a write that a device cannot have, or null when every code is one it may have:
 * a channel code of the specification (core §4, application §3) within its prefix's count (§9), an
 * expanded-IO code within the device's configured expanded IO. Refused rather than queued: a made-up
 * code would wait a week for a device that ignores it.
 */
export function unknownChannelCode(codes: Iterable<string>, expandedIoMax: number | null): string | null {
  for (const code of codes) if (!isWithinMaxCount(code, expandedIoMax)) return code;
  return null;
}

/** The 400 answer to a write naming a channel the device cannot have. */
export function unknownChannelCodeMessage(code: string): string {
  return `Unknown channel code for this device: ${code}.`;
}
