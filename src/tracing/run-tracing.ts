import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span, type Tracer } from '@opentelemetry/api';
import type { IdGenerator } from '@opentelemetry/sdk-trace-base';
import { NO_TRACE, type AttemptTrace, type TraceAttributes, type TraceSpan } from './attempt-trace.js';
import type { SecretMask } from '../connections/secret-mask.js';
import type { RunOutcome } from '../runs/run-outcome.js';
import type { RunRow } from '../store/runs-table.js';
import type { WaitpointRow } from '../store/waitpoints-store.js';
import { attemptSpanId, runTraceIds, runTraceparent, type RunTraceIds } from './run-trace-ids.js';

/** The most of one text a span holds with content capture on. */
const CONTENT_LIMIT = 4096;

/** An attempt's trace as the engine holds it: what the attempt's parts open spans in, and its end. */
export interface OpenAttemptTrace extends AttemptTrace {
  /** Ends the attempt's span with how it ended (null: stopped, to be re-queued or cancelled). */
  end(outcome: RunOutcome | null): void;
}

const NO_ATTEMPT: OpenAttemptTrace = { ...NO_TRACE, end: () => undefined };

/**
 * Ids a span is started with, when they must be the run's (its span, its attempts': run-trace-ids.ts), else random.
 * The SDK asks its IdGenerator for a span's ids as it starts it, synchronously: `with` sets them for that one start.
 */
export class ChosenIds implements IdGenerator {
  private chosen: { traceId: string; spanId: string } | null = null;

  constructor(private readonly random: IdGenerator) {}

  with<T>(ids: { traceId: string; spanId: string }, start: () => T): T {
    this.chosen = ids;
    try {
      return start();
    } finally {
      this.chosen = null;
    }
  }

  generateTraceId(): string {
    return this.chosen?.traceId ?? this.random.generateTraceId();
  }

  generateSpanId(): string {
    return this.chosen?.spanId ?? this.random.generateSpanId();
  }
}

/**
 * Runs as traces (docs/operations.md, Traces): a span for the run, one per attempt, and under each attempt the spans
 * its parts open (model calls with the gen_ai.* attributes, tool calls, the sandbox's start, replay steps) and the
 * waits for a person. The daemon makes one (tracing-subsystem.ts); `RunTracing.off`, without settings, makes nothing.
 *
 * The run's span is emitted when the run ends, with its creation as its start; an attempt's span is open while the
 * attempt runs. Their ids are the run's (run-trace-ids.ts), so the attempts of every daemon join one trace.
 */
export class RunTracing {
  static readonly off = new RunTracing(null);

  constructor(private readonly o: { tracer: Tracer; ids: ChosenIds; captureContent: boolean } | null) {}

  get enabled(): boolean {
    return this.o !== null;
  }

  /** The attempt's span, started now; `mask` is the run's secret mask (known once its connections are read). */
  attempt(run: RunRow, mask: () => SecretMask): OpenAttemptTrace {
    const o = this.o;
    if (o === null) return NO_ATTEMPT;
    const ids = runTraceIds(run);
    if (ids.traceFlags === 0) return NO_ATTEMPT;
    const span = o.ids.with({ traceId: ids.traceId, spanId: attemptSpanId(run.id, run.attempt) }, () =>
      o.tracer.startSpan('errand.attempt', { kind: SpanKind.INTERNAL, attributes: { 'errand.run.id': run.id, 'errand.attempt': run.attempt } }, runContext(ids)),
    );
    const parent = trace.setSpan(ROOT_CONTEXT, span);
    const content = (text: () => string): string | undefined => (o.captureContent ? truncate(mask().text(text())) : undefined);
    return {
      start: (name, attributes) => new OtelSpan(o.tracer.startSpan(name, { kind: kindOf(name), attributes: clean(attributes) }, parent)),
      content,
      end: (outcome) => {
        // The task is added at the end: the run's secrets, and so its mask, are known only once its connections are read.
        const prompt = content(() => run.prompt);
        if (prompt !== undefined) span.setAttribute('gen_ai.input.messages', JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: prompt }] }]));
        if (outcome === null) span.setAttribute('errand.attempt.outcome', 'stopped');
        else {
          span.setAttributes(clean({ 'errand.attempt.outcome': outcome.status, 'errand.run.failure_reason': outcome.status === 'failed' ? outcome.reason : undefined }));
          if (outcome.status === 'failed') span.setStatus({ code: SpanStatusCode.ERROR, message: outcome.code ?? outcome.reason });
        }
        span.end();
      },
    };
  }

  /** The run's span, from its creation to its end: inside its ending move's unit of work, emitted after it commits. */
  runEnded(run: RunRow): void {
    const o = this.o;
    if (o === null) return;
    const ids = runTraceIds(run);
    if (ids.traceFlags === 0) return;
    const span = o.ids.with({ traceId: ids.traceId, spanId: ids.runSpanId }, () =>
      o.tracer.startSpan(
        'invoke_agent errand',
        {
          kind: SpanKind.INTERNAL,
          startTime: Date.parse(run.created_at),
          attributes: clean({
            'gen_ai.operation.name': 'invoke_agent',
            'gen_ai.agent.name': 'errand',
            'gen_ai.conversation.id': run.id,
            'gen_ai.request.model': run.model,
            'gen_ai.usage.input_tokens': run.input_tokens,
            'gen_ai.usage.output_tokens': run.output_tokens,
            'errand.run.id': run.id,
            'errand.run.status': run.status,
            'errand.run.source': run.source,
            'errand.run.mode': run.mode,
            'errand.run.attempts': run.attempt,
            'errand.run.cost_usd': run.cost_usd,
            'errand.run.max_cost_usd': run.max_cost_usd,
            'errand.run.failure_reason': run.failure_reason,
            'errand.run.failure_code': run.failure_code,
            'errand.job.id': run.job_id,
            'errand.project.id': run.project_id,
            'errand.org.id': run.org_id,
          }),
        },
        ids.parent === null ? ROOT_CONTEXT : trace.setSpanContext(ROOT_CONTEXT, ids.parent),
      ),
    );
    if (run.status === 'failed') span.setStatus({ code: SpanStatusCode.ERROR, message: run.failure_code ?? run.failure_reason ?? 'failed' });
    span.end(run.finished_at === null ? undefined : Date.parse(run.finished_at));
  }

  /** A wait of the run's (a person's answer, their control of the browser, an email) once it ended: a span of its attempt. */
  waitEnded(run: RunRow, waitpoint: WaitpointRow): void {
    const o = this.o;
    if (o === null || waitpoint.ended_at === null) return;
    const ids = runTraceIds(run);
    if (ids.traceFlags === 0) return;
    const attempt = trace.setSpanContext(ROOT_CONTEXT, { traceId: ids.traceId, spanId: attemptSpanId(run.id, waitpoint.attempt), traceFlags: ids.traceFlags, isRemote: false });
    const span = o.tracer.startSpan(
      `errand.wait ${waitpoint.kind}`,
      {
        kind: SpanKind.INTERNAL,
        startTime: Date.parse(waitpoint.created_at),
        attributes: { 'errand.run.id': run.id, 'errand.wait.id': waitpoint.id, 'errand.wait.kind': waitpoint.kind, 'errand.wait.status': waitpoint.status, 'errand.wait.timer': waitpoint.timer },
      },
      attempt,
    );
    span.end(Date.parse(waitpoint.ended_at));
  }

  /** The `traceparent` a run's webhooks carry (its span's), or null without tracing or a caller's trace. */
  traceparentOf(run: { id: string; traceparent: string | null }): string | null {
    return this.o === null && run.traceparent === null ? null : runTraceparent(run);
  }
}

class OtelSpan implements TraceSpan {
  constructor(private readonly span: Span) {}

  set(attributes: TraceAttributes): void {
    this.span.setAttributes(clean(attributes));
  }

  fail(errorType: string): void {
    this.span.setAttribute('error.type', errorType);
    this.span.setStatus({ code: SpanStatusCode.ERROR });
  }

  end(): void {
    this.span.end();
  }
}

/** The run's span as the parent of its attempts', by its ids: it is emitted only when the run ends. */
function runContext(ids: RunTraceIds): Context {
  return trace.setSpanContext(ROOT_CONTEXT, { traceId: ids.traceId, spanId: ids.runSpanId, traceFlags: ids.traceFlags, isRemote: false });
}

/** Model calls leave the process (client spans); everything else is work of the daemon's own. */
function kindOf(name: string): SpanKind {
  return name.startsWith('chat ') ? SpanKind.CLIENT : SpanKind.INTERNAL;
}

function clean(attributes: TraceAttributes | undefined): Attributes {
  const out: Attributes = {};
  if (attributes === undefined) return out;
  for (const [key, value] of Object.entries(attributes)) {
    if (value === null || value === undefined) continue;
    out[key] = Array.isArray(value) ? [...(value as readonly string[])] : (value as string | number | boolean);
  }
  return out;
}

function truncate(text: string): string {
  return text.length <= CONTENT_LIMIT ? text : `${text.slice(0, CONTENT_LIMIT)}…`;
}
