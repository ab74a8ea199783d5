import type { AppType } from './app-variant';
import type { ExtraFlag, Permission } from './permissions';

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

/** What a prospect reads when they try something the browser demo cannot keep. */
export const DEMO_READ_ONLY_MESSAGE = 'This is a demo: changes to the account, devices and dashboards are not kept.';

/**
 * What the browser demo's visitor may do at the demo's root (core §1): look at everything the variant
 * offers and keep brewing records (deleting a batch too); nothing that changes the account (groups,
 * users, devices, dashboards) or needs the server (reports, OTA). A retailer also sees what empty
 * shelves cost (Financial Loss: REPORTING_PLUS). The server's seeded prospect differs on purpose: it
 * may edit scenes, to show that a demo account refuses it.
 */
export function demoVisitorRights(appType: AppType): { permissions: Permission[]; secretPermissions: ExtraFlag[] } {
  const permissions: Permission[] = ['VIEW_DASH', 'VIEW_ACCOUNTS', 'ALARM', 'END_BREW', 'EDIT_BREW_INFO'];
  if (appType === 'stock') permissions.push('REPORTING', 'REPORTING_PLUS');
  return { permissions, secretPermissions: ['BREW_DELETE'] };
}
