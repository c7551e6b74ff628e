// Where APP_SECRET_KEY comes from: the environment (required in production), or in development
// and tests a key generated once into .data/ beside the embedded database, with a warning.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Config } from '../config/index.js';
import { createSecretBox, decodeKey, type SecretBox } from './secret-box.js';

export const generatedKeyPath = (config: Config) =>
  path.resolve(path.dirname(config.EMBEDDED_PG_DIR), 'app-secret-key');

export function resolveSecretBox(
  config: Config,
  warn: (message: string) => void = (message) => process.stderr.write(`${message}\n`),
): SecretBox {
  if (config.APP_SECRET_KEY) return createSecretBox(decodeKey(config.APP_SECRET_KEY)!);
  const file = generatedKeyPath(config);
  if (!existsSync(file)) {
    mkdirSync(path.dirname(file), { recursive: true });
    try {
      writeFileSync(file, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
      warn(
        `APP_SECRET_KEY is not set: generated one into ${file} for local use. ` +
          'Set APP_SECRET_KEY in production (it is required there).',
      );
    } catch (error) {
      // Another process (the server beside the CLI or a worker) generated it first: use theirs.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  chmodSync(file, 0o600);
  const key = decodeKey(readFileSync(file, 'utf8'));
  if (!key)
    throw new Error(
      `${file} does not hold a 32-byte key; ` +
        'delete it to generate a new one (stored secrets sealed with it become unreadable)',
    );
  return createSecretBox(key);
}
