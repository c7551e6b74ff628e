// Email addresses, as far as the service needs to read them.

/** The domain of an email address, lowercased; null when it is not an address. */
export function emailDomain(email: string): string | null {
  const match = /^[^@\s]+@([^@\s]+)$/.exec(email.trim());
  return match ? match[1]!.toLowerCase().replace(/\.$/, '') : null;
}
