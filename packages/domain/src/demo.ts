/** Demo devices (specification core §1): their ids end with `_DEMO` and their data stays in the browser. */

/** Suffix of demo device ids. */
export const DEMO_DEVICE_SUFFIX = '_DEMO';

/** True for a demo (simulation) device id. */
export function isDemoDeviceId(id: string): boolean {
  return id.endsWith(DEMO_DEVICE_SUFFIX);
}

/** The account kind of demo accounts (core §1, §6): prospects' accounts whose devices are simulated. */
export const DEMO_ACCOUNT_KIND = 'demo';

/**
 * Why a demo batch has no "Generate report": batch reports are documents the server writes, and a
 * demo's batches live in the browser (docs/decisions.md). The console says so rather than offer it.
 */
export const DEMO_REPORTS_MESSAGE = 'Batch reports are made by the server: they are not part of the demo.';
