import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { UserError } from '../../cli-errors.js';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';

export interface OpenRunOptions {
  id: string;
  /** Where to save the screenshot; default `<run id>.png` in the current directory. */
  output?: string;
}

export interface SavedEvidence {
  run_id: string;
  path: string;
  bytes: number;
  content_type: string;
  matched_text: string | null;
  checked_at: string;
}

export function registerRunsOpen(runs: Command): void {
  runs
    .command('open')
    .description("save a run's evidence screenshot to a file and print its path")
    .argument('<id>', 'run id (run_...)')
    .option('-o, --output <path>', 'where to save it (default: ./<run id>.png)')
    .addHelpText('after', examples('errand runs open run_01...', 'xdg-open "$(errand runs open run_01... -o /tmp/evidence.png)"'))
    .action(async (id: string, flags: { output?: string }, c: Command) => {
      await openRun(contextOf(c), { id, ...(flags.output === undefined ? {} : { output: flags.output }) });
    });
}

export async function openRun(ctx: CliContext, options: OpenRunOptions): Promise<SavedEvidence> {
  const envelope = await ctx.api().getRun(options.id);
  const url = envelope.evidence?.screenshot_url ?? null;
  if (url === null) {
    const why = envelope.status === 'queued' || envelope.status === 'running' ? `it is ${envelope.status}; try again when it has ended` : `it ended ${envelope.status} without one`;
    throw new UserError(`${envelope.task_id} has no evidence screenshot: ${why}`, 'no_evidence');
  }
  // The link is signed: it needs no API key.
  const res = await fetch(url, { signal: AbortSignal.timeout(30_000) });
  if (!res.ok) throw new UserError(`could not download the screenshot of ${envelope.task_id}: HTTP ${res.status}`, 'evidence_unavailable');
  const bytes = Buffer.from(await res.arrayBuffer());
  const path = resolve(options.output ?? `${envelope.task_id}.png`);
  writeFileSync(path, bytes);
  const saved: SavedEvidence = {
    run_id: envelope.task_id,
    path,
    bytes: bytes.length,
    content_type: res.headers.get('content-type') ?? 'application/octet-stream',
    matched_text: envelope.evidence?.matched_text ?? null,
    checked_at: envelope.evidence!.checked_at,
  };
  ctx.out.result(saved, () => ctx.out.line(path));
  return saved;
}
