import { userUpdateId } from '@fieldlink/domain/user-rules';

// Every `PUT /user` of this tab carries the next id of one series, so a slow answer to an older
// update is recognised and ignored (specification §4), whichever feature sent it.

const series = Array.from(crypto.getRandomValues(new Uint8Array(6)), (byte) => byte.toString(36).padStart(2, '0'))
  .join('')
  .slice(0, 10);
let sequence = 0;
let latest: string | null = null;

/** The id of a new user update; it becomes the latest this tab sent. */
export function nextUserUpdateId(): string {
  sequence += 1;
  latest = userUpdateId(series, sequence);
  return latest;
}

/** The latest update id this tab sent, or null before any. */
export function latestUserUpdateId(): string | null {
  return latest;
}
