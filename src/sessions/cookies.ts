// The web app's cookies (the session, the single sign-on flow): httpOnly, SameSite=Lax, Secure
// outside local development, and then with the __Host- prefix (no Domain, Path=/, Secure: a
// sibling subdomain cannot plant or read them).
export interface CookiePolicy {
  secure: boolean;
}

export const cookieName = (policy: CookiePolicy, base: string) => (policy.secure ? `__Host-${base}` : base);

export function cookie(policy: CookiePolicy, base: string, value: string, maxAgeSeconds: number): string {
  return [
    `${cookieName(policy, base)}=${value}`,
    'Path=/',
    'HttpOnly',
    'SameSite=Lax',
    `Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}`,
    ...(policy.secure ? ['Secure'] : []),
  ].join('; ');
}

const SESSION = 'sb_session';
export const sessionCookieName = (policy: CookiePolicy) => cookieName(policy, SESSION);
export const sessionCookie = (policy: CookiePolicy, token: string, maxAgeSeconds: number) =>
  cookie(policy, SESSION, token, maxAgeSeconds);
export const clearedSessionCookie = (policy: CookiePolicy) => sessionCookie(policy, '', 0);

export function readCookie(header: string | null, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index > 0 && part.slice(0, index).trim() === name) return part.slice(index + 1).trim();
  }
  return null;
}
