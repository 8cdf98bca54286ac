import { afterEach, describe, expect, it } from 'vitest';
import pino from 'pino';
import { loadConfig } from '../../src/config/load.js';
import { readTracingSettings } from '../../src/tracing/tracing-settings.js';
import { tracingSubsystem } from '../../src/tracing/tracing-subsystem.js';
import { RunTracing } from '../../src/tracing/run-tracing.js';
import { tempDir } from '../fixtures/temp-dir.js';

let home: ReturnType<typeof tempDir> | undefined;
afterEach(() => home?.remove());

function config(env: Record<string, string> = {}) {
  home = tempDir('errand-tracing-');
  return loadConfig({ home: home.path, env });
}

describe('readTracingSettings', () => {
  it('is off (null) when no endpoint is set, whatever else is', () => {
    expect(readTracingSettings(config(), { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_SERVICE_NAME: 'x' })).toBeNull();
  });

  it('reads the standard variables: the general endpoint gets /v1/traces, the signal\'s own is used as given', () => {
    const general = readTracingSettings(config(), { OTEL_EXPORTER_OTLP_ENDPOINT: 'https://otel.example:4318/', OTEL_EXPORTER_OTLP_HEADERS: 'x-honeycomb-team=abc%20def,x-b=2' });
    expect(general).toEqual({
      url: 'https://otel.example:4318/v1/traces',
      protocol: 'http/protobuf',
      headers: { 'x-honeycomb-team': 'abc def', 'x-b': '2' },
      serviceName: 'errand',
      timeoutMs: 10_000,
      captureContent: false,
    });
    const own = readTracingSettings(config(), { OTEL_EXPORTER_OTLP_ENDPOINT: 'https://a.example', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://b.example/custom/path' });
    expect(own!.url).toBe('https://b.example/custom/path');
  });

  it('takes the tracing.* keys when no standard variable is set, and lets the variables win over them', () => {
    const keys = { ERRAND_TRACING_ENDPOINT: 'https://keys.example/v1/traces', ERRAND_TRACING_PROTOCOL: 'http/json', ERRAND_TRACING_CAPTURE_CONTENT: 'true', ERRAND_TRACING_SERVICE_NAME: 'errand-eu' };
    expect(readTracingSettings(config(keys), {})).toMatchObject({ url: 'https://keys.example/v1/traces', protocol: 'http/json', captureContent: true, serviceName: 'errand-eu' });
    expect(readTracingSettings(config(keys), { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf', OTEL_SERVICE_NAME: 'std' })).toMatchObject({ protocol: 'http/protobuf', serviceName: 'std' });
  });

  it('is off with OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none, though an endpoint is set', () => {
    expect(readTracingSettings(config(), { OTEL_EXPORTER_OTLP_ENDPOINT: 'https://a.example', OTEL_SDK_DISABLED: 'true' })).toBeNull();
    expect(readTracingSettings(config(), { OTEL_EXPORTER_OTLP_ENDPOINT: 'https://a.example', OTEL_TRACES_EXPORTER: 'none' })).toBeNull();
  });

  it('refuses, naming the setting, what it cannot use: grpc, another exporter, a bad URL, malformed headers, a bad timeout', () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'https://a.example' };
    expect(() => readTracingSettings(config(), { ...endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(/"grpc" is not one Errand exports traces with: http\/protobuf or http\/json/);
    expect(() => readTracingSettings(config(), { ...endpoint, OTEL_TRACES_EXPORTER: 'zipkin' })).toThrow(/OTEL_TRACES_EXPORTER/);
    expect(() => readTracingSettings(config(), { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'not a url' })).toThrow(/not a URL/);
    expect(() => readTracingSettings(config(), { ...endpoint, OTEL_EXPORTER_OTLP_HEADERS: 'novalue' })).toThrow(/key=value pairs/);
    expect(() => readTracingSettings(config(), { ...endpoint, OTEL_EXPORTER_OTLP_TIMEOUT: '-5' })).toThrow(/OTEL_EXPORTER_OTLP_TIMEOUT/);
  });
});

describe('tracingSubsystem', () => {
  it('without settings, hands out the no-op tracing and starts nothing', async () => {
    const part = await tracingSubsystem({ config: config(), env: {}, logger: pino({ level: 'silent' }) });
    expect(part.services.tracing).toBe(RunTracing.off);
    expect(part.services.tracing.enabled).toBe(false);
    expect(part.close).toBeUndefined();
    expect(part.start).toBeUndefined();
  });
});
