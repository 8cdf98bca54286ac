import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Option, type Command } from 'commander';
import { APIError, type Download, type Run } from '../../api.js';
import { UsageError, UserError } from '../../cli-errors.js';
import { contextOf, type CliContext } from '../../context.js';
import { integerFlag } from '../../flag-parsers.js';
import { examples } from '../../help.js';
import { hasDisplay, startTraceViewer } from '../../trace-viewer.js';

/** What `runs open` fetches: the evidence screenshot, the run's video, or its Playwright trace. */
export type OpenedArtifact = 'screenshot' | 'recording' | 'trace';

export interface OpenRunOptions {
  id: string;
  /** Default: the screenshot. */
  artifact?: OpenedArtifact;
  /** Where to save it; default `<run id>.png`, `<run id>.webm` or `<run id>-trace.zip` in the current directory. */
  output?: string;
  /** For a trace: serve it in the Playwright trace viewer until interrupted (not with --json). */
  viewer?: boolean;
  /** The viewer's loopback port (default: any free one). */
  port?: number;
}

export interface SavedEvidence {
  run_id: string;
  /** Which artifact was saved. */
  artifact: OpenedArtifact;
  path: string;
  bytes: number;
  content_type: string;
  matched_text: string | null;
  checked_at: string;
}

const ARTIFACTS: Record<OpenedArtifact, { what: string; file: (runId: string) => string; url: (evidence: NonNullable<Run['evidence']>) => string | null }> = {
  screenshot: { what: 'evidence screenshot', file: (id) => `${id}.png`, url: (e) => e.screenshot_url },
  recording: { what: 'recording', file: (id) => `${id}.webm`, url: (e) => e.recording_url },
  trace: { what: 'trace', file: (id) => `${id}-trace.zip`, url: (e) => e.trace_url },
};

export function registerRunsOpen(runs: Command): void {
  runs
    .command('open')
    .description("save a run's evidence screenshot, its recording (--recording) or its trace (--trace, then shown in the Playwright trace viewer)")
    .argument('<id>', 'run id (run_...)')
    .addOption(new Option('--recording', "save the run's video (WebM, plays in any current browser)").conflicts('trace'))
    .option('--trace', "save the run's Playwright trace and serve it in the trace viewer until Ctrl-C")
    .option('--no-viewer', 'with --trace: only save the trace (always so with --json)')
    .addOption(new Option('--port <n>', "with --trace: the viewer's port on 127.0.0.1 (default: any free one), to tunnel or bookmark").argParser(integerFlag(1, 65_535)))
    .option('-o, --output <path>', 'where to save it (default: ./<run id>.png, ./<run id>.webm or ./<run id>-trace.zip)')
    .addHelpText(
      'after',
      examples(
        'errand runs open run_01...',
        'xdg-open "$(errand runs open run_01... -o /tmp/evidence.png)"',
        'errand runs open run_01... --recording',
        'errand runs open run_01... --trace            # the trace viewer, on a loopback port',
        'errand runs open run_01... --trace --port 9323  # then ssh -L 9323:127.0.0.1:9323 <this host>',
        'errand runs open run_01... --trace --no-viewer -o run.zip',
      ),
    )
    .action(async (id: string, flags: { output?: string; recording?: boolean; trace?: boolean; viewer: boolean; port?: number }, c: Command) => {
      const artifact: OpenedArtifact = flags.recording === true ? 'recording' : flags.trace === true ? 'trace' : 'screenshot';
      if (flags.port !== undefined && (artifact !== 'trace' || !flags.viewer)) throw new UsageError('--port is the trace viewer\'s: give it with --trace (and without --no-viewer)', 'usage_error', '--port');
      await openRun(contextOf(c), { id, artifact, viewer: flags.viewer, ...(flags.output === undefined ? {} : { output: flags.output }), ...(flags.port === undefined ? {} : { port: flags.port }) });
    });
}

export async function openRun(ctx: CliContext, options: OpenRunOptions): Promise<SavedEvidence> {
  const artifact = options.artifact ?? 'screenshot';
  const { what, file, url: urlOf } = ARTIFACTS[artifact];
  const api = ctx.api();
  const envelope = await api.runs.get(options.id);
  const url = envelope.evidence === null ? null : urlOf(envelope.evidence);
  if (url === null) throw new UserError(`${envelope.task_id} has no ${what}: ${missingWhy(envelope, artifact)}`, 'no_evidence');
  let downloaded: Download;
  try {
    downloaded = await api.artifacts.download(url, { timeoutMs: 120_000 });
  } catch (err) {
    if (err instanceof APIError) throw new UserError(`could not download the ${what} of ${envelope.task_id}: HTTP ${err.status}`, 'evidence_unavailable');
    throw err;
  }
  const bytes = Buffer.from(downloaded.bytes);
  const path = resolve(options.output ?? file(envelope.task_id));
  writeFileSync(path, bytes);
  const saved: SavedEvidence = {
    run_id: envelope.task_id,
    artifact,
    path,
    bytes: bytes.length,
    content_type: downloaded.contentType ?? 'application/octet-stream',
    matched_text: envelope.evidence?.matched_text ?? null,
    checked_at: envelope.evidence!.checked_at,
  };
  ctx.out.result(saved, () => {
    ctx.out.line(path);
    if (artifact === 'recording') ctx.out.note(`play it in a browser: ${pathToFileURL(path).href}`);
  });
  if (artifact === 'trace' && options.viewer !== false && !ctx.out.json) await showTrace(ctx, path, options.port);
  return saved;
}

function missingWhy(envelope: Run, artifact: OpenedArtifact): string {
  if (envelope.status === 'queued' || envelope.status === 'running') return `it is ${envelope.status}; try again when it has ended`;
  if (artifact === 'screenshot') return `it ended ${envelope.status} without one`;
  return `it was not recorded (it did not use the browser, recording was off for it, its job or this installation, or retention removed it)`;
}

/** Serves the trace in playwright-core's trace viewer until Ctrl-C, saying how to reach it where no window can open. */
async function showTrace(ctx: CliContext, path: string, port?: number): Promise<void> {
  const viewer = await startTraceViewer(path, port);
  if (hasDisplay()) {
    ctx.out.note(`the trace viewer is at ${viewer.url} (your browser should open it); Ctrl-C stops it`);
  } else {
    const port = new URL(viewer.url).port;
    ctx.out.note(
      `no display here to open a browser in. The trace viewer is at ${viewer.url}: open it in a browser on this machine, ` +
        `or from yours: ssh -L ${port}:127.0.0.1:${port} <this host>, then http://127.0.0.1:${port}. The trace is saved at ${path}; ` +
        'Ctrl-C stops the viewer',
    );
  }
  const stop = (): void => viewer.stop();
  process.once('SIGINT', stop).once('SIGTERM', stop);
  try {
    await viewer.stopped;
  } finally {
    process.off('SIGINT', stop).off('SIGTERM', stop);
  }
}
