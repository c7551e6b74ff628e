// Secrets we must read again (webhook signing secrets, OIDC client secrets) are stored sealed
// with AES-256-GCM under APP_SECRET_KEY. The row's identity is bound in as associated data, so
// a sealed value copied into another row or column does not open.
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12;

export interface SecretBox {
  seal(plaintext: string, context: string): string;
  open(sealed: string, context: string): string;
  /** A key for another purpose (cookie signing), derived so that APP_SECRET_KEY itself is never used twice. */
  derive(purpose: string): Buffer;
}

export class SecretBoxError extends Error {}

/** 32 bytes given as 64 hex characters or as base64; null when the text is neither. */
export function decodeKey(text: string): Buffer | null {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed)) {
    const bytes = Buffer.from(trimmed.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (bytes.length === 32) return bytes;
  }
  return null;
}

export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new SecretBoxError('APP_SECRET_KEY must be 32 bytes');
  return {
    seal(plaintext, context) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(context));
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return [
        VERSION,
        iv.toString('base64'),
        cipher.getAuthTag().toString('base64'),
        ciphertext.toString('base64'),
      ].join(':');
    },
    derive(purpose) {
      return createHmac('sha256', key).update(`signalboard:${purpose}`).digest();
    },
    open(sealed, context) {
      const [version, iv, tag, ciphertext] = sealed.split(':');
      if (version !== VERSION || !iv || !tag || ciphertext === undefined)
        throw new SecretBoxError('not a sealed secret');
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
        decipher.setAAD(Buffer.from(context));
        decipher.setAuthTag(Buffer.from(tag, 'base64'));
        return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64')), decipher.final()]).toString('utf8');
      } catch {
        // Deliberately vague: neither the key nor the value belongs in a log line.
        throw new SecretBoxError(
          'a stored secret cannot be opened: APP_SECRET_KEY differs from the one that sealed it',
        );
      }
    },
  };
}
