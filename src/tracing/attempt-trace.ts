/**
 * Where an attempt's work is traced (src/tracing/ implements it; docs/operations.md, Traces): the agent loop, the
 * sandbox's start, a replay's steps open spans here, children of the attempt's span. Without tracing configured it
 * is NO_TRACE, which does nothing. What a span holds is never a secret: text goes in only through `content`, which
 * answers it masked with the run's secret mask, and only when the operator turned content capture on.
 */
export type TraceValue = string | number | boolean | readonly string[];
export type TraceAttributes = Readonly<Record<string, TraceValue | null | undefined>>;

export interface TraceSpan {
  /** Adds attributes (null and undefined ones are left out). */
  set(attributes: TraceAttributes): void;
  /** Marks the span failed, with the error's type (a short name, never a message that could quote a page or secret). */
  fail(errorType: string): void;
  /** Ends the span; once. */
  end(): void;
}

export interface AttemptTrace {
  /** Starts a span of the attempt (its parent is the attempt's span). */
  start(name: string, attributes?: TraceAttributes): TraceSpan;
  /**
   * Text for a span: masked, and only with content capture on; otherwise undefined, so the attribute is left out.
   * `text` is called only then: without capture, nothing is spent making it.
   */
  content(text: () => string): string | undefined;
}

const NO_SPAN: TraceSpan = { set: () => undefined, fail: () => undefined, end: () => undefined };

/** No tracing: nothing is made, nothing is kept. */
export const NO_TRACE: AttemptTrace = { start: () => NO_SPAN, content: () => undefined };

/** Runs `work` in a span: ended however it ends, failed with the error's class name when it throws. */
export async function traced<T>(trace: AttemptTrace, name: string, attributes: TraceAttributes, work: (span: TraceSpan) => Promise<T>): Promise<T> {
  const span = trace.start(name, attributes);
  try {
    return await work(span);
  } catch (err) {
    span.fail(err instanceof Error ? err.constructor.name : 'error');
    throw err;
  } finally {
    span.end();
  }
}
