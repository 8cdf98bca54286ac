import type { Config } from '../config/schema.js';

/** The OTLP protocols Errand exports traces with (both over HTTP; gRPC would bring a second network stack). */
export const TRACING_PROTOCOLS = ['http/protobuf', 'http/json'] as const;
export type TracingProtocol = (typeof TRACING_PROTOCOLS)[number];

/** Where and how the daemon sends its traces; null (tracing off) when no endpoint is set. */
export interface TracingSettings {
  /** The full URL spans are posted to (`.../v1/traces`). */
  url: string;
  protocol: TracingProtocol;
  /** Sent with every export (a backend's API key): a secret, never logged. */
  headers: Record<string, string>;
  serviceName: string;
  timeoutMs: number;
  /** Whether spans may hold a prompt's text, tool inputs and results, the model's answers (masked even then). */
  captureContent: boolean;
}

/**
 * Tracing's settings from the standard OpenTelemetry variables (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT,
 * OTEL_EXPORTER_OTLP_ENDPOINT + /v1/traces, ..._HEADERS, ..._PROTOCOL, ..._TIMEOUT, OTEL_SERVICE_NAME), which win as
 * environment does over files, else the `tracing.*` keys; null when neither names an endpoint, or
 * OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none say no. Throws, naming the setting, for one Errand cannot use.
 */
export function readTracingSettings(config: Config, env: NodeJS.ProcessEnv): TracingSettings | null {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return null;
  const exporters = env.OTEL_TRACES_EXPORTER?.trim().toLowerCase();
  if (exporters === 'none') return null;
  if (exporters !== undefined && exporters !== '' && !exporters.split(',').map((e) => e.trim()).includes('otlp')) {
    throw new Error(`OTEL_TRACES_EXPORTER is "${env.OTEL_TRACES_EXPORTER}": Errand exports traces with OTLP only (otlp, or none)`);
  }
  const url = tracesUrl(env) ?? config['tracing.endpoint'];
  if (url === null) return null;
  try {
    new URL(url);
  } catch {
    throw new Error(`the traces endpoint "${url}" is not a URL (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, OTEL_EXPORTER_OTLP_ENDPOINT or tracing.endpoint)`);
  }
  const protocol = (nonEmpty(env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL) ?? nonEmpty(env.OTEL_EXPORTER_OTLP_PROTOCOL) ?? config['tracing.protocol']).trim();
  if (!(TRACING_PROTOCOLS as readonly string[]).includes(protocol)) {
    throw new Error(`the OTLP protocol "${protocol}" is not one Errand exports traces with: ${TRACING_PROTOCOLS.join(' or ')} (OTEL_EXPORTER_OTLP_PROTOCOL or tracing.protocol)`);
  }
  const headerText = nonEmpty(env.OTEL_EXPORTER_OTLP_TRACES_HEADERS) ?? nonEmpty(env.OTEL_EXPORTER_OTLP_HEADERS) ?? config['tracing.headers'];
  const timeout = nonEmpty(env.OTEL_EXPORTER_OTLP_TRACES_TIMEOUT) ?? nonEmpty(env.OTEL_EXPORTER_OTLP_TIMEOUT);
  const timeoutMs = timeout === undefined ? config['tracing.timeout_ms'] : Number(timeout);
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) throw new Error(`the OTLP export timeout "${timeout}" is not a whole number of milliseconds above 0 (OTEL_EXPORTER_OTLP_TIMEOUT)`);
  return {
    url,
    protocol: protocol as TracingProtocol,
    headers: headerText === null ? {} : parseHeaders(headerText),
    serviceName: nonEmpty(env.OTEL_SERVICE_NAME) ?? config['tracing.service_name'],
    timeoutMs,
    captureContent: config['tracing.capture_content'],
  };
}

/** The signal's own endpoint is used as given; the general one gets /v1/traces, as the specification says. */
function tracesUrl(env: NodeJS.ProcessEnv): string | null {
  const own = nonEmpty(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
  if (own !== undefined) return own;
  const base = nonEmpty(env.OTEL_EXPORTER_OTLP_ENDPOINT);
  return base === undefined ? null : `${base.replace(/\/+$/, '')}/v1/traces`;
}

/** `key1=value1,key2=value2`, values percent-decoded (the W3C Baggage form the specification uses). */
function parseHeaders(text: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const pair of text.split(',')) {
    if (pair.trim() === '') continue;
    const at = pair.indexOf('=');
    if (at <= 0) throw new Error('the OTLP headers must be key=value pairs separated by commas (OTEL_EXPORTER_OTLP_HEADERS or tracing.headers)');
    headers[decodeURIComponent(pair.slice(0, at).trim())] = decodeURIComponent(pair.slice(at + 1).trim());
  }
  return headers;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}
