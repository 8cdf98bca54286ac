import { createHash } from 'node:crypto';
import { TraceFlags, type SpanContext } from '@opentelemetry/api';
import { parseTraceParent } from '@opentelemetry/core';

/**
 * A run's trace, said by its ids alone. A run lasts hours, over several attempts and daemon restarts, so no span
 * object can be kept open from its creation to its end; instead every id is derived from the run's id: its trace
 * (the caller's, when it was created under a `traceparent`, else one of its own), the run's span and each attempt's.
 * Any part that knows the run (an attempt, a waitpoint's end, a webhook's delivery) can so join it, in any daemon.
 */
export interface RunTraceIds {
  traceId: string;
  /** The run's span, emitted when the run ends (its start is the run's creation). */
  runSpanId: string;
  /** Sampled unless the caller's traceparent said otherwise. */
  traceFlags: number;
  /** The caller's span the run's is a child of, or null. */
  parent: SpanContext | null;
}

export function runTraceIds(run: { id: string; traceparent: string | null }): RunTraceIds {
  const parent = run.traceparent === null ? null : validParent(run.traceparent);
  return {
    traceId: parent?.traceId ?? digest(`errand-trace:${run.id}`, 32),
    runSpanId: digest(`errand-run:${run.id}`, 16),
    traceFlags: parent === null ? TraceFlags.SAMPLED : parent.traceFlags & TraceFlags.SAMPLED,
    parent,
  };
}

export function attemptSpanId(runId: string, attempt: number): string {
  return digest(`errand-attempt:${runId}:${attempt}`, 16);
}

/** The W3C `traceparent` of the run's span: what its webhooks carry. */
export function runTraceparent(run: { id: string; traceparent: string | null }): string {
  const ids = runTraceIds(run);
  return `00-${ids.traceId}-${ids.runSpanId}-0${ids.traceFlags}`;
}

/**
 * A caller's `traceparent` header as stored with its run, or null when it is absent or not a valid W3C
 * traceparent: an invalid one is ignored and the run starts a trace of its own, as the W3C Trace Context asks.
 */
export function acceptedTraceparent(header: string | string[] | undefined): string | null {
  const value = Array.isArray(header) ? (header.length === 1 ? header[0] : undefined) : header;
  if (value === undefined) return null;
  const parsed = validParent(value.trim());
  return parsed === null ? null : `00-${parsed.traceId}-${parsed.spanId}-${parsed.traceFlags.toString(16).padStart(2, '0')}`;
}

function validParent(value: string): SpanContext | null {
  const parsed = parseTraceParent(value);
  if (parsed === null || /^0+$/.test(parsed.traceId) || /^0+$/.test(parsed.spanId)) return null;
  return { ...parsed, isRemote: true };
}

/** An id from a hash: 128 or 64 bits, never all zero (which W3C forbids) in practice. */
function digest(text: string, hexChars: number): string {
  return createHash('sha256').update(text).digest('hex').slice(0, hexChars);
}
