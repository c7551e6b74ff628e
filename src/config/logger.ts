// The process's logger: JSON lines, secrets in headers redacted. Every entry point makes one.
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
