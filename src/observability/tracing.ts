// OpenTelemetry traces, off unless OTEL_EXPORTER_OTLP_ENDPOINT is set. The SDK (loaded only
// then) exports over OTLP/HTTP; the rest of the code speaks to the API, which is a no-op until
// the SDK registers, and asks `tracing.on` before doing any tracing work on a hot path.
// Spans: one per request (the route template, W3C traceparent accepted from callers), one per
// tenant statement (its declared name, never values), one per outbound call (webhook attempts,
// identity providers) with traceparent passed on, one per MCP tool call (joining the trace its
// `_meta.traceparent` names).
import { context, propagation, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span } from '@opentelemetry/api';

const TRACER = 'signalboard';

export interface TracingConfig {
  OTEL_EXPORTER_OTLP_ENDPOINT?: string | undefined;
  OTEL_TRACES_SAMPLER: string;
  OTEL_TRACES_SAMPLER_ARG?: number | undefined;
  OTEL_SERVICE_NAME: string;
}

export const tracing = {
  on: false,
  /** Exports what is buffered (tests read the receiver right after). */
  flush: async () => {},
  shutdown: async () => {},
};

/** Starts the SDK when an endpoint is configured; once per process. */
export async function startTracing(config: TracingConfig): Promise<void> {
  if (!config.OTEL_EXPORTER_OTLP_ENDPOINT || tracing.on) return;
  const [{ NodeTracerProvider, BatchSpanProcessor, ParentBasedSampler, TraceIdRatioBasedSampler, AlwaysOnSampler, AlwaysOffSampler }, { OTLPTraceExporter }, { resourceFromAttributes }] = await Promise.all([
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
  ]);
  const ratio = config.OTEL_TRACES_SAMPLER_ARG ?? 1;
  const root = { always_on: new AlwaysOnSampler(), always_off: new AlwaysOffSampler(), traceidratio: new TraceIdRatioBasedSampler(ratio) };
  const name = config.OTEL_TRACES_SAMPLER;
  const sampler = name.startsWith('parentbased_') ? new ParentBasedSampler({ root: root[name.slice('parentbased_'.length) as keyof typeof root] }) : root[name as keyof typeof root];
  const exporter = new OTLPTraceExporter({ url: `${config.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/$/, '')}/v1/traces` });
  const provider = new NodeTracerProvider({ sampler, resource: resourceFromAttributes({ 'service.name': config.OTEL_SERVICE_NAME }), spanProcessors: [new BatchSpanProcessor(exporter)] });
  provider.register();
  tracing.on = true;
  tracing.flush = () => provider.forceFlush();
  tracing.shutdown = () => provider.shutdown();
}

const tracer = () => trace.getTracer(TRACER);

/** Runs `work` in a span that ends with it (errors recorded); without tracing, just runs it. */
export function inSpan<T>(name: string, attributes: Attributes, work: (span: Span | null) => Promise<T>, options: { kind?: SpanKind; parent?: Context } = {}): Promise<T> {
  if (!tracing.on) return work(null);
  return tracer().startActiveSpan(name, { kind: options.kind ?? SpanKind.INTERNAL, attributes }, options.parent ?? context.active(), async (span) => {
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

/** The context a caller's traceparent names (or the active one). */
const incomingContext = (headers: Headers) => propagation.extract(context.active(), headers, { get: (carrier, key) => carrier.get(key) ?? undefined, keys: (carrier) => [...carrier.keys()] });

/**
 * The context named by a trace carrier that is not a header set: an MCP request's `_meta`
 * (`traceparent`, `tracestate`), as MCP clients pass the caller's trace. Without one, the
 * active context (the HTTP request's span).
 */
export function contextFromCarrier(carrier: Record<string, unknown> | undefined): Context {
  if (!tracing.on || typeof carrier?.traceparent !== 'string') return context.active();
  return propagation.extract(context.active(), carrier, { get: (values, key) => (typeof values[key] === 'string' ? (values[key] as string) : undefined), keys: (values) => Object.keys(values) });
}

/** The server span of one request, a child of the caller's traceparent when it sends one. */
export function inRequestSpan(request: Request, route: string, requestId: string, work: () => Promise<Response>): Promise<Response> {
  if (!tracing.on) return work();
  return inSpan(
    `${request.method} ${route}`,
    { 'http.request.method': request.method, 'http.route': route, 'signalboard.request_id': requestId },
    async (span) => {
      const response = await work();
      span?.setAttribute('http.response.status_code', response.status);
      return response;
    },
    { kind: SpanKind.SERVER, parent: incomingContext(request.headers) },
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
