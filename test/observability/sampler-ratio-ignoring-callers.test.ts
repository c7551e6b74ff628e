// A ratio sampler without the parentbased_ prefix draws for each request whatever its caller's
// traceparent says; a request the draw leaves out leaves out its statements too. They never draw
// for themselves: a statement span exists only under a recorded request span of ours, never as a
// child of the caller's span.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeyedWorkspace, type TestApp } from '../support/app.js';
import { hexId, type OtlpReceiver } from '../support/otlp-receiver.js';
import { startTracedTestApp } from '../support/traced-app.js';
import { tracing } from '../../src/observability/tracing.js';

let receiver: OtlpReceiver;
let t: TestApp;
let close: () => Promise<void>;

beforeAll(
  async () =>
    ({
      receiver,
      app: t,
      close,
    } = await startTracedTestApp({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.5' })),
);
afterAll(() => close?.());

describe('a ratio sampler that ignores callers', () => {
  it('records a statement only inside a request span it drew', async () => {
    const { key } = await createKeyedWorkspace(t.database);
    const callerSpanId = '00f067aa0ba902b7';
    const requests = 40;
    for (let index = 1; index <= requests; index++) {
      const traceparent = `00-${index.toString(16).padStart(32, '0')}-${callerSpanId}-01`;
      expect((await t.get('/api/v1/clients', key.secret, { headers: { traceparent } })).status).toBe(200);
    }
    await tracing.shutdown();
    const requestSpans = receiver.spans.filter((span) => span.name.startsWith('GET '));
    const statementSpans = receiver.spans.filter((span) => span.name.startsWith('SELECT '));
    // Binomial(40, 0.5): none or all drawn with a probability of 2e-12.
    expect(requestSpans.length).toBeGreaterThan(0);
    expect(requestSpans.length).toBeLessThan(requests);
    expect(statementSpans.length).toBeGreaterThan(0);
    const requestSpanIds = new Set(requestSpans.map((span) => hexId(span.spanId)));
    for (const statement of statementSpans) expect(requestSpanIds).toContain(hexId(statement.parentSpanId!));
  });
});
