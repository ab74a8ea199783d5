/** Number formats of docs/PERFORMANCE.md: thousands separated, units spelled out. */

export function formatCount(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return 'n/a';
  if (ms >= 10_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms >= 100) return `${Math.round(ms)} ms`;
  return `${ms.toFixed(1)} ms`;
}

export function formatBytes(bytes: number): string {
  return `${Math.round(bytes / 2 ** 20)} MiB`;
}
