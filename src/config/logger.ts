// The process's logger: JSON lines, secrets in headers redacted. Every entry point makes one.
import pino, { type Logger } from 'pino';
import type { Config } from './index.js';

export function createLogger(config: Pick<Config, 'LOG_LEVEL'>): Logger {
  return pino({ level: config.LOG_LEVEL, base: { service: 'signalboard' }, redact: ['req.headers.authorization', 'headers.authorization'] });
}
