// The session cookie: httpOnly, SameSite=Lax, Secure outside local development, and then with
// the __Host- prefix (no Domain, Path=/, Secure: a sibling subdomain cannot plant or read it).
export interface CookiePolicy {
  secure: boolean;
}

export const sessionCookieName = (policy: CookiePolicy) => (policy.secure ? '__Host-sb_session' : 'sb_session');

export function sessionCookie(policy: CookiePolicy, token: string, maxAgeSeconds: number): string {
  return [`${sessionCookieName(policy)}=${token}`, 'Path=/', 'HttpOnly', 'SameSite=Lax', `Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}`, ...(policy.secure ? ['Secure'] : [])].join('; ');
}

export const clearedSessionCookie = (policy: CookiePolicy) => sessionCookie(policy, '', 0);

export function readCookie(header: string | null, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index > 0 && part.slice(0, index).trim() === name) return part.slice(index + 1).trim();
  }
  return null;
}
