// A sampler without the parentbased_ prefix decides on its own, whatever a caller's traceparent
// says (OpenTelemetry's meaning of always_off, always_on and traceidratio): with always_off, a
// request its caller traces exports nothing, and no statement starts a trace of its own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeyedWorkspace, type TestApp } from '../support/app.js';
import type { OtlpReceiver } from '../support/otlp-receiver.js';
import { startTracedTestApp } from '../support/traced-app.js';
import { tracing } from '../../src/observability/tracing.js';

let receiver: OtlpReceiver;
let t: TestApp;
let close: () => Promise<void>;

beforeAll(async () => ({ receiver, app: t, close } = await startTracedTestApp({ OTEL_TRACES_SAMPLER: 'always_off' })));
afterAll(() => close?.());

describe('a sampler that ignores callers', () => {
  it('exports nothing for requests whose caller samples them', async () => {
    const { key } = await createKeyedWorkspace(t.database);
    for (let index = 1; index <= 10; index++) {
      const traceparent = `00-${index.toString(16).padStart(32, '0')}-00f067aa0ba902b7-01`;
      expect((await t.get('/api/v1/clients', key.secret, { headers: { traceparent } })).status).toBe(200);
    }
    await tracing.shutdown();
    expect(receiver.spans.map((span) => span.name)).toEqual([]);
  });
});
