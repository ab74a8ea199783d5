/** The base32 secret in groups of four, easier to type into an app that cannot scan. */
export function groupedSecret(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, '$1 ');
}

/** The text of the recovery codes file: what they are, for whom, one code a line. */
export function recoveryCodesFile(codes: readonly string[], productName: string, email: string): string {
  return [
    `${productName} recovery codes for ${email}`,
    'Each code signs you in once when your authenticator app is not at hand. Keep them somewhere safe.',
    '',
    ...codes,
    '',
  ].join('\n');
}
