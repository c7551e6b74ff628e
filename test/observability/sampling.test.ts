// The default head sampling, against a real OTLP/HTTP endpoint: one in a hundred of the requests that
// start a trace are exported, and a caller's sampling decision (its traceparent's flags) is
// followed either way, so a traced caller always gets the whole trace, and a request left out
// leaves out its statements too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeyedWorkspace, type TestApp } from '../support/app.js';
import { hexId, type OtlpReceiver } from '../support/otlp-receiver.js';
import { startTracedTestApp } from '../support/traced-app.js';
import { samplingOf, tracing } from '../../src/observability/tracing.js';

let receiver: OtlpReceiver;
let t: TestApp;
let close: () => Promise<void>;

// Only the endpoint is configured: the sampler and its ratio are the configuration's defaults.
// The agency plan's bucket (createKeyedWorkspace's default) holds the 2 040 requests below.
beforeAll(async () => ({ receiver, app: t, close } = await startTracedTestApp({}, { RATE_LIMIT_AGENCY: '3000/10' })));
afterAll(() => close?.());

describe('default trace sampling', () => {
  it("exports about one in a hundred new traces and follows every caller's decision", async () => {
    const { key } = await createKeyedWorkspace(t.database);
    const traceparent = (index: number, flags: '00' | '01') =>
      `00-${index.toString(16).padStart(8, '0').repeat(4)}-00f067aa0ba902b7-${flags}`;
    for (let index = 1; index <= 20; index++) {
      for (const flags of ['01', '00'] as const)
        expect(
          (
            await t.get('/api/v1/clients', key.secret, {
              headers: { traceparent: traceparent(flags === '01' ? index : 1000 + index, flags) },
            })
          ).status,
        ).toBe(200);
    }
    const unparented = 2_000;
    for (let index = 0; index < unparented; index++)
      expect((await t.get('/api/v1/clients', key.secret)).status).toBe(200);
    await tracing.shutdown();
    // Trace ids of the requests' spans, and of the SQL statements' spans.
    const traceIds = receiver.spans.filter((span) => span.name.startsWith('GET ')).map((span) => hexId(span.traceId));
    const statementTraceIds = receiver.spans
      .filter((span) => span.name.startsWith('SELECT '))
      .map((span) => hexId(span.traceId));

    const callerSampled = Array.from({ length: 20 }, (_, index) => traceparent(index + 1, '01').slice(3, 35));
    const callerUnsampled = Array.from({ length: 20 }, (_, index) => traceparent(1000 + index + 1, '00').slice(3, 35));
    expect(callerSampled.filter((id) => traceIds.includes(id))).toHaveLength(20);
    expect(callerUnsampled.filter((id) => traceIds.includes(id))).toEqual([]);
    // A statement is traced exactly when its request is: never as a trace of its own.
    expect(new Set(statementTraceIds)).toEqual(new Set(traceIds));
    // Binomial(2 000, 0.01): mean 20; outside 2–60 with a probability below 1e-7.
    const started = traceIds.length - 20;
    expect(started).toBeGreaterThanOrEqual(2);
    expect(started).toBeLessThanOrEqual(60);
  });
});

describe('the configured sampler', () => {
  it('names how often a trace starts and whether a caller decides for its request', () => {
    expect(samplingOf('parentbased_traceidratio', 0.05)).toEqual({ startRatio: 0.05, followsCaller: true });
    expect(samplingOf('parentbased_always_off', 0.05)).toEqual({ startRatio: 0, followsCaller: true });
    expect(samplingOf('always_on', 0.05)).toEqual({ startRatio: 1, followsCaller: false });
    expect(samplingOf('traceidratio', 0.2)).toEqual({ startRatio: 0.2, followsCaller: false });
  });
});
