// Passwords are kept only as argon2id hashes (@node-rs/argon2's defaults: 19 MiB, 2 passes,
// OWASP's recommendation).
import { Algorithm, hash, verify } from '@node-rs/argon2';

export const MIN_PASSWORD_LENGTH = 12;
const MAX_PASSWORD_LENGTH = 256;

export const hashPassword = (password: string) => hash(password, { algorithm: Algorithm.Argon2id });

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

// Verified against when the account does not exist, so that a wrong email costs as long as a wrong password.
let decoy: Promise<string> | null = null;
export const decoyHash = () => (decoy ??= hashPassword('signalboard-decoy-password'));

export function passwordProblem(password: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) return `a password needs at least ${MIN_PASSWORD_LENGTH} characters`;
  if (password.length > MAX_PASSWORD_LENGTH) return `a password has at most ${MAX_PASSWORD_LENGTH} characters`;
  return null;
}
