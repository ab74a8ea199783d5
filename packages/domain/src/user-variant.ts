/**
 * User variants (specification core §1): identified by a product-type code. Variant "2" is centred on
 * accounts: it needs VIEW_ACCOUNTS for dashboard access and names its new-devices group "New Stock".
 */

/** Product-type code of the accounts-centred variant. */
export const ACCOUNTS_USER_VARIANT = '2';
/** Product-type code of the other named variant (its differences are not given by the specification). */
export const OTHER_USER_VARIANT = '5';

/** True for the accounts-centred variant "2". */
export function isAccountsVariant(userVariant: string | null | undefined): boolean {
  return userVariant === ACCOUNTS_USER_VARIANT;
}
