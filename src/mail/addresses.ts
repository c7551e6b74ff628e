// Email addresses, as far as the service needs to read them.

/** The domain of an email address, lowercased; null when it is not an address. */
export function emailDomain(email: string): string | null {
  const match = /^[^@\s]+@([^@\s]+)$/.exec(email.trim());
  return match ? match[1]!.toLowerCase().replace(/\.$/, '') : null;
}

/**
 * An address as accounts are keyed: lowercased, its domain without the trailing dot DNS allows
 * ("Owner@Corp.com." is owner@corp.com); null when it is not an address. Without it an identity
 * provider's "alice@corp.com." made a second account beside alice@corp.com.
 */
export function canonicalEmail(email: string): string | null {
  const domain = emailDomain(email);
  // A domain with an empty label ("corp.com..", "corp..com") is not one.
  if (domain === null || domain.split('.').some((label) => !label)) return null;
  return `${email.trim().split('@')[0]!.normalize('NFKC').toLowerCase()}@${domain}`;
}
