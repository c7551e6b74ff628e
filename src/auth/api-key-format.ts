// Key format sgb_live_<key_id>.<secret_part>: key_id is public and indexed; the secret
// part carries 256 bits and only its SHA-256 is stored. A plain hash is enough for a
// high-entropy secret (no dictionary to attack), and keeps verification cheap.
import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { base62 } from '../db/ids.js';

export const KEY_PREFIX = 'sgb_live_';
const KEY_ID_LENGTH = 16;
const SECRET_BYTES = 32;
const KEY_PATTERN = /^sgb_live_([0-9A-Za-z]{16})\.([A-Za-z0-9_-]{43})$/;

export interface GeneratedKey {
  keyId: string;
  secret: string;
  secretHash: Buffer;
}

export const hashSecret = (secretPart: string): Buffer => hash('sha256', secretPart, 'buffer');

export function generateApiKey(): GeneratedKey {
  const keyId = base62(KEY_ID_LENGTH);
  const secretPart = randomBytes(SECRET_BYTES).toString('base64url');
  return { keyId, secret: `${KEY_PREFIX}${keyId}.${secretPart}`, secretHash: hashSecret(secretPart) };
}

export function parseApiKey(token: string): { keyId: string; secretPart: string } | null {
  const match = KEY_PATTERN.exec(token);
  return match ? { keyId: match[1]!, secretPart: match[2]! } : null;
}

export function secretMatches(secretPart: string, storedHash: Uint8Array): boolean {
  const candidate = hashSecret(secretPart);
  return storedHash.length === candidate.length && timingSafeEqual(candidate, storedHash);
}

/**
 * RFC 6750's challenge for a refused bearer credential: the scheme to use, and with `error` why
 * this request's one failed (none when it sent no credential at all, as §3.1 asks).
 */
export function bearerChallenge(
  error?: 'invalid_request' | 'invalid_token' | 'insufficient_scope',
  scope?: string,
): Record<string, string> {
  const why = `${error ? `, error="${error}"` : ''}${scope ? `, scope="${scope}"` : ''}`;
  return { 'WWW-Authenticate': `Bearer realm="signalboard"${why}` };
}

/** Extracts the token of `Authorization: Bearer <token>`; anything else is null. */
export function bearerToken(header: string | null): string | null {
  if (!header) return null;
  const match = /^Bearer +([^\s,]+) *$/i.exec(header);
  return match ? match[1]! : null;
}
