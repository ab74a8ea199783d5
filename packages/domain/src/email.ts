/** E-mail addresses (specification core §5): sign-in trims and lowercases the address. */

/** The form an e-mail address is compared and stored in: trimmed and lower case. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}
