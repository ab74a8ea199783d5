import type { WorkLimitRefusal } from '@fieldlink/domain/work-limits';
import { errorBody } from '@fieldlink/api/errors';

export { errorBody };

/** An error with the status and message the client is meant to see. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly headers: Record<string, string> = {},
    /** Fields the answer carries beside `statusCode`, `error` and `message` (a limit's name). */
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** The 401 of a request without a valid session token: the console ends the session on it. */
export function sessionEndedBody() {
  return { ...errorBody(401, 'Please sign in again.'), sessionEnded: true as const };
}

export const notFound = (message = 'Not found.') => new HttpError(404, message);
export const forbidden = (message = 'You do not have permission to do that.') => new HttpError(403, message);

/**
 * A request past one of the stored-work limits of `@fieldlink/domain/work-limits`: 429 naming the
 * limit and its value, with `retryAfterSeconds` and `Retry-After` when trying again may succeed.
 */
export function limitReached(refusal: WorkLimitRefusal): HttpError {
  const retry = refusal.retryAfterSeconds;
  return new HttpError(429, refusal.message, retry === null ? {} : { 'retry-after': String(retry) }, {
    limit: refusal.limit,
    max: refusal.max,
    ...(retry === null ? {} : { retryAfterSeconds: retry }),
  });
}
