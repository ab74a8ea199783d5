/**
 * The names the console's first calls need, without their schemas: the console's start-up
 * (`apps/web/src/app/first-calls.ts`) sends those calls before the rest of its code has loaded, so
 * it must not pull TypeBox and the API's schemas in with them. The schema modules re-export these.
 */

/** Local-storage key of the session token (`{product}Token`). */
export const TOKEN_STORAGE_KEY = 'fieldlinkToken';

/** Headers every call of the web client carries (specification §7). */
export const CLIENT_TYPE = 'WEB';
export const CLIENT_VERSION = '0.17.8';

/** Path of the device table's call under `/api/v1`. */
export const DEVICE_TABLE_PATH = '/devices/table';

/** The `format` query value that asks for the device table's binary form (`device-table-binary.ts`). */
export const DEVICE_TABLE_BINARY_QUERY = 'binary';

/** The `format` query value that asks for the account tree's compact form (`account-columns.ts`). */
export const ACCOUNT_COLUMNS_QUERY = 'columns';

/** Path of the signed-in user's call (`SelfAnswer`) under `/api/v1`. */
export const SELF_PATH = '/self';

/** Path of the account tree's call (`AccountAnswer`, `AccountColumnsAnswer`) under `/api/v1`. */
export const ACCOUNT_PATH = '/account';
