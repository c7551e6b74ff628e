/** The caller's address for throttling: the socket's, or behind a trusted proxy the last X-Forwarded-For hop. */
export function clientAddress(
  forwardedFor: string | null | undefined,
  remoteAddress: string | undefined,
  trustProxy: boolean,
): string {
  if (trustProxy) {
    const forwarded = forwardedFor
      ?.split(',')
      .map((part) => part.trim())
      .filter(Boolean);
    if (forwarded?.length) return forwarded[forwarded.length - 1]!;
  }
  return remoteAddress ?? 'unknown';
}
