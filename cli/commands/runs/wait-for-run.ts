import type { RunEnvelope } from '../../api-client.js';
import { SilentExit } from '../../cli-errors.js';
import type { CliContext } from '../../context.js';
import { progressEvents, snapshotOf, type ProgressSnapshot } from '../../tui/progress-events.js';
import { watchRun } from './watch-run.js';

export interface WaitOptions {
  intervalMs: number;
}

/**
 * Waits for a run to end, showing progress on stderr: an Ink spinner when stderr is a terminal, plain lines
 * otherwise. stdout is left for the result. Ctrl-C stops waiting (exit 130), not the run.
 */
export async function waitForRun(ctx: CliContext, id: string, options: WaitOptions): Promise<RunEnvelope> {
  const abort = new AbortController();
  const onInt = () => abort.abort();
  process.on('SIGINT', onInt);
  try {
    const updates = watchRun(ctx.api(), id, { intervalMs: options.intervalMs, signal: abort.signal });
    const envelope = process.stderr.isTTY ? await waitWithInk(id, updates) : await waitWithLines(ctx, id, updates);
    return envelope;
  } catch (err) {
    if (abort.signal.aborted) {
      ctx.out.note(`stopped waiting; ${id} goes on (errand runs get ${id})`);
      throw new SilentExit(130);
    }
    throw err;
  } finally {
    process.off('SIGINT', onInt);
  }
}

async function waitWithInk(id: string, updates: AsyncIterable<RunEnvelope>): Promise<RunEnvelope> {
  // Ink and React load only here: most commands never need them.
  const { renderWait } = await import('../../tui/render-wait.js');
  const outcome = await renderWait(id, updates, process.stderr);
  if ('error' in outcome) throw outcome.error;
  return outcome.envelope;
}

async function waitWithLines(ctx: CliContext, id: string, updates: AsyncIterable<RunEnvelope>): Promise<RunEnvelope> {
  let previous: ProgressSnapshot | null = null;
  let last: RunEnvelope | null = null;
  for await (const envelope of updates) {
    const next = snapshotOf(envelope);
    for (const line of progressEvents(previous, next)) ctx.out.note(`${id}: ${line}`);
    previous = next;
    last = envelope;
  }
  if (last === null) throw new Error(`${id} could not be polled`);
  return last;
}
