import type { Run } from '../../api.js';
import { SilentExit } from '../../cli-errors.js';
import type { CliContext } from '../../context.js';
import { plainLine, updateLines } from '../../run-progress.js';
import { followRun, type RunUpdate } from '../../run-updates.js';
import { exitCodeOf, printEnvelope } from './envelope-view.js';

/**
 * Follows a run's event stream until it ends, showing on stderr every status change and every step once, with the
 * cost so far: an Ink view when stderr is a terminal, plain lines otherwise. stdout is left for the envelope.
 * Ctrl-C stops following (exit 130), not the run.
 */
export async function waitForRun(ctx: CliContext, id: string): Promise<Run> {
  const abort = new AbortController();
  const onInt = () => abort.abort();
  process.on('SIGINT', onInt);
  try {
    const updates = followRun(ctx.api(), id, {
      signal: abort.signal,
      onConnection: (state) => {
        if (state === 'reconnecting' && !ctx.interactive) ctx.out.note(`${id}: connection to the daemon lost; reconnecting`);
      },
    });
    return ctx.interactive ? await waitWithInk(ctx, id, updates) : await waitWithLines(ctx, id, updates);
  } catch (err) {
    if (abort.signal.aborted) {
      ctx.out.note(`stopped following; ${id} goes on (${ctx.cliName} runs watch ${id})`);
      throw new SilentExit(130);
    }
    throw err;
  } finally {
    process.off('SIGINT', onInt);
  }
}

/** Follows the run, prints its envelope on stdout, and exits 1 unless it succeeded. */
export async function followToEnvelope(ctx: CliContext, id: string): Promise<void> {
  const envelope = await waitForRun(ctx, id);
  printEnvelope(ctx, envelope);
  const code = exitCodeOf(envelope);
  if (code !== 0) throw new SilentExit(code);
}

async function waitWithInk(ctx: CliContext, id: string, updates: AsyncIterable<RunUpdate>): Promise<Run> {
  // Ink and React load only here: most commands never need them.
  const { renderWait } = await import('../../tui/render-wait.js');
  const outcome = await renderWait(id, updates, process.stderr, ctx.cliName);
  if ('error' in outcome) throw outcome.error;
  return outcome.envelope;
}

async function waitWithLines(ctx: CliContext, id: string, updates: AsyncIterable<RunUpdate>): Promise<Run> {
  for await (const update of updates) {
    if (update.kind === 'end') return update.envelope;
    for (const line of updateLines(update, ctx.cliName)) ctx.out.note(`${id}: ${plainLine(line)}`);
  }
  throw new Error(`the stream of ${id} closed before the run ended`);
}
