/**
 * Signed-in sessions (issue 38 item 4): how a session's browser is named in the list a user sees.
 */

const BROWSERS: readonly (readonly [RegExp, string])[] = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\b(?:OPR|Opera)\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\b(?:Firefox|FxiOS)\//, 'Firefox'],
  // Headless Chrome (an automated browser) is Chrome too.
  [/\b(?:Chrome|HeadlessChrome|CriOS|Chromium)\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
  [/\bcurl\//, 'curl'],
];

const SYSTEMS: readonly (readonly [RegExp, string])[] = [
  [/\biPhone\b/, 'iPhone'],
  [/\biPad\b/, 'iPad'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

/** The longest user agent shown as it is when no browser is recognised. */
const RAW_AGENT_LENGTH = 60;

/**
 * A session's browser as people read it: "Firefox on Windows", "Safari on iPhone"; an unknown client
 * by its user agent (cut short), and "Unknown browser" without one.
 */
export function browserOf(userAgent: string | null): string {
  const agent = userAgent?.trim() ?? '';
  if (!agent) return 'Unknown browser';
  const browser = BROWSERS.find(([pattern]) => pattern.test(agent))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(agent))?.[1];
  if (!browser) return agent.length > RAW_AGENT_LENGTH ? `${agent.slice(0, RAW_AGENT_LENGTH - 1)}…` : agent;
  return system ? `${browser} on ${system}` : browser;
}
