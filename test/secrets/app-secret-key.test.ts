import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/index.js';
import { generatedKeyPath, resolveSecretBox } from '../../src/secrets/app-secret-key.js';

const dir = mkdtempSync(path.join(tmpdir(), 'sb-key-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('APP_SECRET_KEY', () => {
  it('is required in production and must be 32 bytes', () => {
    expect(() => parseConfig({ NODE_ENV: 'production' })).toThrow(/APP_SECRET_KEY: is required in production/);
    expect(() => parseConfig({ APP_SECRET_KEY: 'short' })).toThrow(/APP_SECRET_KEY: must be 32 bytes/);
    expect(
      parseConfig({
        NODE_ENV: 'production',
        APP_SECRET_KEY: 'ab'.repeat(32),
        PUBLIC_BASE_URL: 'https://signalboard.example',
      }).APP_SECRET_KEY,
    ).toBe('ab'.repeat(32));
  });

  const generatedOnce =
    'outside production is generated once into .data/ beside the embedded database, ' +
    'private to the user, with one warning';
  it(generatedOnce, () => {
    const config = parseConfig({ EMBEDDED_PG_DIR: path.join(dir, 'postgres') });
    const warnings: string[] = [];
    const first = resolveSecretBox(config, (message) => warnings.push(message));
    const second = resolveSecretBox(config, (message) => warnings.push(message));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/APP_SECRET_KEY is not set: generated one into .*app-secret-key/);
    expect(warnings[0]).not.toContain(readFileSync(generatedKeyPath(config), 'utf8').trim());
    expect(statSync(generatedKeyPath(config)).mode & 0o777).toBe(0o600);
    expect(second.open(first.seal('whsec_x', 'ctx'), 'ctx')).toBe('whsec_x');
  });

  it('given in the environment is used as is', () => {
    const key = Buffer.alloc(32, 3);
    const box = resolveSecretBox(
      parseConfig({ APP_SECRET_KEY: key.toString('hex'), EMBEDDED_PG_DIR: path.join(dir, 'other', 'postgres') }),
      () => {
        throw new Error('no warning expected');
      },
    );
    expect(box.open(box.seal('x', 'c'), 'c')).toBe('x');
  });
});
