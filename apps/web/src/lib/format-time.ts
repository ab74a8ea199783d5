/**
 * Relative ages and form-input times of the console. Dates and times as shown are formatted by
 * `@fieldlink/domain/date-format` (day first, one time zone per page).
 */

/** How long ago, short and human: `just now`, `42 s ago`, `5 min ago`, `3 h ago`, `2 d ago`. */
export function formatAge(t: number, now: number): string {
  const seconds = Math.round((now - t) / 1000);
  if (seconds < 0) return 'just now';
  if (seconds < 5) return 'just now';
  if (seconds < 60) return `${seconds} s ago`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.floor(hours / 24)} d ago`;
}
