/**
 * Time formatting for the console. The default date format of the specification is
 * `DD/MM/YY h:mm:ss a` (§9); it is written out here rather than pulling in a date library for it.
 */

const pad = (n: number) => String(n).padStart(2, '0');

/** `DD/MM/YY h:mm:ss a` in the browser's time zone, e.g. `07/03/25 2:05:09 pm`. */
export function formatDateTime(t: number): string {
  const d = new Date(t);
  const hours = d.getHours();
  const h12 = hours % 12 === 0 ? 12 : hours % 12;
  return `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${pad(d.getFullYear() % 100)} ${h12}:${pad(d.getMinutes())}:${pad(d.getSeconds())} ${hours < 12 ? 'am' : 'pm'}`;
}

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

const pad2 = (n: number) => String(n).padStart(2, '0');

/** The local calendar day of a date, `YYYY-MM-DD` (file names). */
export function localDay(date: Date): string {
  return `${date.getFullYear()}-${pad2(date.getMonth() + 1)}-${pad2(date.getDate())}`;
}

/** A time as the value of an `<input type="datetime-local">`: local, `YYYY-MM-DDTHH:mm`. */
export function localDateTimeInput(t: number): string {
  const date = new Date(t);
  return `${localDay(date)}T${pad2(date.getHours())}:${pad2(date.getMinutes())}`;
}
