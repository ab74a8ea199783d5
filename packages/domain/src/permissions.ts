/** Permissions of specification §6, in the order the specification lists them. */
export const PERMISSIONS = [
  'ADMIN',
  'ALARM',
  'VIEW_DASH',
  'ADD_EDIT_DELETE_SCENES',
  'ADD_EDIT_DELETE_WIDGETS',
  'VIEW_ACCOUNTS',
  'ADD_EDIT_DELETE_GROUPS',
  'INVITE_USERS',
  'EDIT_DELETE_USERS',
  'ADD_DEVICES',
  'MOBILE_ONLY',
  'READ_REPORTS',
  'CUD_REPORTS',
  'READ_REPORT_SCHEDULES',
  'CUD_REPORT_SCHEDULES',
  'REPORTING',
  'REPORTING_PLUS',
  'END_BREW',
  'EDIT_BREW_INFO',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** Extra ("secret") flags of specification §6. */
export const EXTRA_FLAGS = [
  'ADMIN',
  'OTA_UPDATE',
  'ADV_DEVICE_INFO',
  'BREW_DELETE',
  'BREW_CALIB_CO2_TOTAL_GAIN',
  'MOSNIX_BROADCAST_SPRAY',
] as const;
export type ExtraFlag = (typeof EXTRA_FLAGS)[number];
