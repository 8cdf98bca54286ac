import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { Logger } from 'pino';
import type { Config } from '../config/schema.js';
import { packageVersion } from '../package-root.js';
import type { Subsystem } from '../subsystem.js';
import { ChosenIds, RunTracing } from './run-tracing.js';
import { readTracingSettings, type TracingSettings } from './tracing-settings.js';

/** A failed export is logged at most this often: a backend that is down must not fill the log. */
const EXPORT_FAILURE_LOG_EVERY_MS = 60_000;

/**
 * Tracing (docs/operations.md, Traces): off, and nothing of OpenTelemetry's SDK loaded, unless an OTLP endpoint is
 * set; then the official SDK's tracer provider with a batching processor and the OTLP/HTTP exporter of the chosen
 * encoding, flushed and shut down when the daemon closes. No global provider is registered: the spans are the
 * daemon's, made through the RunTracing it hands the parts that trace.
 */
export async function tracingSubsystem(deps: { config: Config; env: NodeJS.ProcessEnv; logger: Logger }): Promise<Subsystem<{ tracing: RunTracing }>> {
  const settings = readTracingSettings(deps.config, deps.env);
  if (settings === null) return { name: 'tracing', services: { tracing: RunTracing.off } };
  const { provider, ids } = await tracerProvider(settings, deps.logger.child({ component: 'tracing' }));
  const tracing = new RunTracing({ tracer: provider.getTracer('errand', packageVersion()), ids, captureContent: settings.captureContent });
  deps.logger.info({ endpoint: settings.url, protocol: settings.protocol, captureContent: settings.captureContent }, 'tracing: runs are exported as OTLP traces');
  return {
    name: 'tracing',
    services: { tracing },
    async close() {
      await provider.shutdown();
    },
  };
}

async function tracerProvider(settings: TracingSettings, logger: Logger) {
  const [{ BasicTracerProvider, BatchSpanProcessor, RandomIdGenerator, AlwaysOnSampler }, { resourceFromAttributes }] = await Promise.all([
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/resources'),
  ]);
  const exporterOptions = { url: settings.url, headers: settings.headers, timeoutMillis: settings.timeoutMs };
  const exporter =
    settings.protocol === 'http/json'
      ? new (await import('@opentelemetry/exporter-trace-otlp-http')).OTLPTraceExporter(exporterOptions)
      : new (await import('@opentelemetry/exporter-trace-otlp-proto')).OTLPTraceExporter(exporterOptions);
  const ids = new ChosenIds(new RandomIdGenerator());
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': settings.serviceName, 'service.version': packageVersion() }),
    idGenerator: ids,
    sampler: new AlwaysOnSampler(),
    spanProcessors: [new BatchSpanProcessor(new LoggedExporter(exporter, logger))],
  });
  return { provider, ids };
}

/** The exporter, with its failures logged (at most once a minute): the SDK would drop them silently. */
class LoggedExporter implements SpanExporter {
  private lastLogged = 0;

  constructor(
    private readonly exporter: SpanExporter,
    private readonly logger: Logger,
  ) {}

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    this.exporter.export(spans, (result) => {
      const now = Date.now();
      if (result.code !== ExportResultCode.SUCCESS && now - this.lastLogged >= EXPORT_FAILURE_LOG_EVERY_MS) {
        this.lastLogged = now;
        // The error's message only: the exporter's request, and its headers (a backend's key), stay out of the log.
        this.logger.warn({ spans: spans.length, error: result.error?.message }, 'tracing: spans could not be exported; they are dropped');
      }
      done(result);
    });
  }

  shutdown(): Promise<void> {
    return this.exporter.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.exporter.forceFlush?.() ?? Promise.resolve();
  }
}
