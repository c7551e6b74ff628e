// The process's logger: JSON lines, secrets in headers redacted. Every entry point makes one.
import { format } from 'node:util';
import pino, { type Logger } from 'pino';
import type { Config } from './index.js';
import { activeTraceId } from '../observability/tracing.js';

export function createLogger(config: Pick<Config, 'LOG_LEVEL'>, destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level: config.LOG_LEVEL,
    base: { service: 'signalboard' },
    redact: ['req.headers.authorization', 'headers.authorization'],
    // With tracing on, every line written inside a span names its trace.
    mixin: () => {
      const traceId = activeTraceId();
      return traceId ? { traceId } : {};
    },
  };
  return destination ? pino(options, destination) : pino(options);
}

const CONSOLE_LEVELS = { debug: 'debug', log: 'info', info: 'info', warn: 'warn', error: 'error' } as const;
const ANSI_CODES = /\x1b\[[0-9;]*m/g;

/**
 * What libraries print with console.* (oidc-provider's notices and warnings) becomes a line of
 * this logger, so a process's stdout is JSON lines only. Called once by each process's entry point.
 */
export function routeConsole(logger: Logger): void {
  for (const [method, level] of Object.entries(CONSOLE_LEVELS)) {
    console[method as keyof typeof CONSOLE_LEVELS] = (...args: unknown[]) =>
      logger[level]({ source: 'console' }, format(...args).replace(ANSI_CODES, ''));
  }
}
