// A test app whose process exports its traces to a fresh OTLP receiver on loopback. Tracing is
// process-wide (startTracing registers the SDK once), so each test file that traces runs in a
// process of its own (vitest's forks) and calls this once.
import { parseConfig } from '../../src/config/index.js';
import { startTracing } from '../../src/observability/tracing.js';
import { createTestApp, type TestApp } from './app.js';
import { startOtlpReceiver, type OtlpReceiver } from './otlp-receiver.js';

/** `tracingEnv`: the OTEL_* settings, parsed with the configuration's defaults; `appEnv`: the app's. */
export async function startTracedTestApp(
  tracingEnv: Record<string, string> = {},
  appEnv: Record<string, string> = {},
): Promise<{ receiver: OtlpReceiver; app: TestApp; close(): Promise<void> }> {
  const receiver = await startOtlpReceiver();
  await startTracing(parseConfig({ NODE_ENV: 'test', OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, ...tracingEnv }));
  const app = await createTestApp(appEnv);
  return {
    receiver,
    app,
    close: async () => {
      await app.close();
      await receiver.close();
    },
  };
}
