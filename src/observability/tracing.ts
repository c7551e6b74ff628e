// OpenTelemetry traces, off unless OTEL_EXPORTER_OTLP_ENDPOINT is set. The SDK (loaded only
// then) exports over OTLP/HTTP; the rest of the code speaks to the API, which is a no-op until
// the SDK registers, and asks `tracing.on` before doing any tracing work on a hot path.
// Spans: one per request (the route template, W3C traceparent accepted from callers), one per
// tenant statement (its declared name, never values), one per outbound call (webhook attempts,
// identity providers) with traceparent passed on, one per MCP tool call (joining the trace its
// `_meta.traceparent` names).
import {
  context,
  propagation,
  SpanKind,
  SpanStatusCode,
  trace,
  TraceFlags,
  type Attributes,
  type Context,
  type Span,
} from '@opentelemetry/api';

const TRACER = 'signalboard';

export interface TracingConfig {
  OTEL_EXPORTER_OTLP_ENDPOINT?: string | undefined;
  OTEL_TRACES_SAMPLER: string;
  OTEL_TRACES_SAMPLER_ARG: number;
  OTEL_SERVICE_NAME: string;
}

export const tracing = {
  on: false,
  /** Exports what is buffered (tests read the receiver right after). */
  flush: async () => {},
  shutdown: async () => {},
};

/**
 * Head sampling, decided here before any span is made. The configured sampler names how often a
 * trace starts (`always_on` 1, `always_off` 0, `traceidratio` its ratio) and whether a caller's
 * traceparent decides for its request (the `parentbased_` names); the SDK then records what was
 * decided (AlwaysOn). Deciding first is the point: a request left out makes no span, not even a
 * non-recording one (docs/decisions/instrumentation-budget.md). Nothing is sent on for a request
 * left out: a call it makes carries no traceparent, and the receiver decides.
 */
interface Sampling {
  startRatio: number;
  followsCaller: boolean;
}
let sampling: Sampling = { startRatio: 1, followsCaller: true };

/** How a configured OTEL_TRACES_SAMPLER and its ratio sample. */
export function samplingOf(sampler: string, ratio: number): Sampling {
  const followsCaller = sampler.startsWith('parentbased_');
  const root = followsCaller ? sampler.slice('parentbased_'.length) : sampler;
  return { startRatio: root === 'always_on' ? 1 : root === 'always_off' ? 0 : ratio, followsCaller };
}

/** Starts the SDK when an endpoint is configured; once per process. */
export async function startTracing(config: TracingConfig): Promise<void> {
  if (!config.OTEL_EXPORTER_OTLP_ENDPOINT || tracing.on) return;
  const [
    { NodeTracerProvider, BatchSpanProcessor, AlwaysOnSampler },
    { OTLPTraceExporter },
    { resourceFromAttributes },
  ] = await Promise.all([
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
  ]);
  sampling = samplingOf(config.OTEL_TRACES_SAMPLER, config.OTEL_TRACES_SAMPLER_ARG);
  const exporter = new OTLPTraceExporter({ url: `${config.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/$/, '')}/v1/traces` });
  const provider = new NodeTracerProvider({
    sampler: new AlwaysOnSampler(),
    resource: resourceFromAttributes({ 'service.name': config.OTEL_SERVICE_NAME }),
    spanProcessors: [new BatchSpanProcessor(exporter)],
  });
  provider.register();
  tracing.on = true;
  tracing.flush = () => provider.forceFlush();
  tracing.shutdown = () => provider.shutdown();
}

const tracer = () => trace.getTracer(TRACER);

const startsNow = () => sampling.startRatio >= 1 || Math.random() < sampling.startRatio;

/**
 * Whether a span under `parent` is recorded: a span of ours decides for its children; a caller's
 * (remote) span decides when the sampler follows callers; otherwise a span that may start a
 * trace draws, and one that may not (a statement, an outbound call outside any trace of ours) is
 * not made.
 */
function recorded(parent: Context, startsTrace: boolean): boolean {
  const span = trace.getSpan(parent);
  const decides = span !== undefined && (sampling.followsCaller || !span.spanContext().isRemote);
  if (!decides) return startsTrace && startsNow();
  return (span.spanContext().traceFlags & TraceFlags.SAMPLED) !== 0;
}

/**
 * Whether a span that cannot start a trace (a statement, a Redis call) would be recorded here: a
 * hot path asks first and, for the requests left out, builds no span name, attributes or closure.
 */
export const inRecordedTrace = () => tracing.on && recorded(context.active(), false);

/**
 * Runs `work` in a span that ends with it (errors recorded); without tracing, or when the span is
 * not recorded, just runs it — in the parent's context, so that what runs inside sees (and passes
 * on) the decision. `startsTrace`: a request or a job, which may begin a trace of its own.
 */
export function inSpan<T>(
  name: string,
  attributes: Attributes,
  work: (span: Span | null) => Promise<T>,
  options: { kind?: SpanKind; parent?: Context; startsTrace?: boolean } = {},
): Promise<T> {
  if (!tracing.on) return work(null);
  const parent = options.parent ?? context.active();
  if (!recorded(parent, options.startsTrace ?? false)) return unrecorded(parent, () => work(null));
  return recordedSpan(name, attributes, work, options.kind ?? SpanKind.INTERNAL, parent);
}

/** Work left out of the trace, in `parent`'s context so that what it calls sees the decision. */
const unrecorded = <T>(parent: Context, work: () => Promise<T>): Promise<T> =>
  parent === context.active() ? work() : context.with(parent, work);

function recordedSpan<T>(
  name: string,
  attributes: Attributes,
  work: (span: Span) => Promise<T>,
  kind: SpanKind,
  parent: Context,
): Promise<T> {
  return tracer().startActiveSpan(name, { kind, attributes }, parent, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      span.recordException(error as Error);
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw error;
    } finally {
      span.end();
    }
  });
}

/** The context a caller's traceparent names (or the active one, without asking the propagators). */
const incomingContext = (headers: Headers) =>
  headers.has('traceparent')
    ? propagation.extract(context.active(), headers, {
        get: (carrier, key) => carrier.get(key) ?? undefined,
        keys: (carrier) => [...carrier.keys()],
      })
    : context.active();

/**
 * The context named by a trace carrier that is not a header set: an MCP request's `_meta`
 * (`traceparent`, `tracestate`), as MCP clients pass the caller's trace. Without one, the
 * active context (the HTTP request's span).
 */
export function contextFromCarrier(carrier: Record<string, unknown> | undefined): Context {
  if (!tracing.on || typeof carrier?.traceparent !== 'string') return context.active();
  return propagation.extract(context.active(), carrier, {
    get: (values, key) => (typeof values[key] === 'string' ? (values[key] as string) : undefined),
    keys: (values) => Object.keys(values),
  });
}

/** The server span of one request, a child of the caller's traceparent when it sends one. */
export function inRequestSpan(
  request: Request,
  route: string,
  requestId: string,
  work: () => Promise<Response>,
): Promise<Response> {
  if (!tracing.on) return work();
  const parent = incomingContext(request.headers);
  // Decided before the span's name and attributes are made: a request left out needs neither.
  if (!recorded(parent, true)) return unrecorded(parent, work);
  const attributes = {
    'http.request.method': request.method,
    'http.route': route,
    'signalboard.request_id': requestId,
  };
  return recordedSpan(
    `${request.method} ${route}`,
    attributes,
    async (span) => {
      const response = await work();
      span.setAttribute('http.response.status_code', response.status);
      return response;
    },
    SpanKind.SERVER,
    parent,
  );
}

/** traceparent (and tracestate) of the active span, for a call we make. */
export function outgoingTraceHeaders(): Record<string, string> {
  if (!tracing.on) return {};
  const headers: Record<string, string> = {};
  propagation.inject(context.active(), headers);
  return headers;
}

/** The active trace's id, for log lines. */
export const activeTraceId = () => (tracing.on ? trace.getActiveSpan()?.spanContext().traceId : undefined);

export { SpanKind };
