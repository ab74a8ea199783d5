import type { ReportState } from '@fieldlink/domain/reports';

/** How far a server's clock may trail the browser's and a report still count as made since the page opened. */
const REPORT_CLOCK_SLACK_MS = 60_000;

/**
 * The reports whose failure is news, each once: those seen in another state before and now in ERROR,
 * and those first seen already failed but made since the page opened (a report that fails within
 * seconds never shows as generating, and its maker is owed a toast all the same, issue 35 item 10).
 * `seen` is the last state of each report looked at; it is brought up to date.
 */
export function newlyFailedReports<T extends { id: string; state: ReportState; createdAt: number }>(
  reports: readonly T[],
  seen: Map<string, ReportState>,
  openedAt: number,
): T[] {
  const failed: T[] = [];
  for (const report of reports) {
    const before = seen.get(report.id);
    const news =
      report.state === 'ERROR' &&
      (before === undefined ? report.createdAt >= openedAt - REPORT_CLOCK_SLACK_MS : before !== 'ERROR');
    if (news) failed.push(report);
    seen.set(report.id, report.state);
  }
  return failed;
}
