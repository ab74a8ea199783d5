/** Query keys of the reports area: every report list and meta sits under REPORTS_KEY. */
export const REPORTS_KEY = ['reports'] as const;
export const SCHEDULES_KEY = ['report-schedules'] as const;
