/** Debian's Chromium, or CHROMIUM_PATH: the browser of the end-to-end tests (`npm test` checks it first). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
