/** Demo devices (specification core §1): their ids end with `_DEMO` and their data stays in the browser. */

/** Suffix of demo device ids. */
export const DEMO_DEVICE_SUFFIX = '_DEMO';

/** True for a demo (simulation) device id. */
export function isDemoDeviceId(id: string): boolean {
  return id.endsWith(DEMO_DEVICE_SUFFIX);
}

/** The account kind of demo accounts (core §1, §6): prospects' accounts whose devices are simulated. */
export const DEMO_ACCOUNT_KIND = 'demo';
