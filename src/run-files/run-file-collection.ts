import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { lookup } from 'mime-types';
import type { Logger } from 'pino';
import type { ArtifactsService } from '../artifacts/artifacts-service.js';
import type { Config } from '../config/schema.js';
import { failedOutcome, type RunOutcome } from '../runs/run-outcome.js';
import type { Sandbox } from '../sandbox/driver.js';
import type { OutputLimits, OutputRefusal } from '../sandbox/protocol.js';
import { SandboxError } from '../sandbox/sandbox-error.js';
import type { RunRow } from '../store/runs-table.js';
import type { SecretMask } from '../connections/secret-mask.js';
import { sanitiseFileName, uniqueFileName } from './file-names.js';
import { SecretInFile, SecretScan } from './secret-scan.js';

const MIB = 1024 * 1024;
/** What a file is served as when its extension says nothing known. */
const UNKNOWN_TYPE = 'application/octet-stream';

/** A run's limits on its files, from `run_files.max_count` and `run_files.max_total_mb`. */
export function runFileLimits(config: Config): OutputLimits {
  return { maxCount: config['run_files.max_count'], maxBytes: config['run_files.max_total_mb'] * MIB };
}

/** The type a file is served as, by its name's extension. */
export function contentTypeOf(name: string): string {
  return lookup(name) || UNKNOWN_TYPE;
}

export interface RunFileCollectionOptions {
  run: RunRow;
  sandbox: Sandbox;
  artifacts: ArtifactsService;
  limits: OutputLimits;
  /** The run's secrets: a file that holds one is not kept. */
  mask: SecretMask;
  signal: AbortSignal;
  logger: Logger;
}

/** What keeping a run's files left to say: a limit passed (null when none was), and a warning per file not kept for a secret. */
export interface RunFilesKept {
  problem: string | null;
  warnings: string[];
}

/**
 * Keeps a run's files (issue 23, item 2) as it ends, before its sandbox goes: each file under /workspace/out/ (browser
 * downloads were moved there), streamed into the data directory as an artifact of kind `file` under its sanitised,
 * unique name, in name order. Within the limits every file is kept; past them, the files that fit are kept and the
 * answer says which limit was passed and which files were not kept (and the downloads the sandbox stopped), for the
 * run's failure_detail. A file that holds one of the run's secrets is not kept either (its bytes are not masked: a
 * PDF or a zip cannot be rewritten), and the answer warns of it by the secret's name.
 */
export async function collectRunFiles(o: RunFileCollectionOptions): Promise<RunFilesKept> {
  const { run, sandbox, limits, signal } = o;
  const scan = new SecretScan(o.mask);
  const warnings: string[] = [];
  const listing = await sandbox.listOutputs(signal);
  const left: { name: string; limit: OutputRefusal['limit'] }[] = listing.refused.map((refusal) => ({ name: sanitiseFileName(refusal.name), limit: refusal.limit }));
  const taken = new Set<string>();
  let count = 0;
  let bytes = 0;
  for (const file of [...listing.files].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const name = uniqueFileName(sanitiseFileName(file.name), taken);
    if (count >= limits.maxCount) {
      left.push({ name, limit: 'count' });
      continue;
    }
    if (bytes + file.size > limits.maxBytes) {
      left.push({ name, limit: 'bytes' });
      continue;
    }
    let content: ReadableStream<Uint8Array>;
    try {
      content = await sandbox.readOutput(file.name, signal);
    } catch (err) {
      // Removed by the task between the listing and now: nothing is lost that was there at the end.
      if (err instanceof SandboxError && err.code === 'not_found') continue;
      throw err;
    }
    let saved;
    try {
      saved = await o.artifacts.saveRunFile(run.org_id, run.id, { name, contentType: contentTypeOf(name) }, scan.through(Readable.fromWeb(content as NodeReadableStream<Uint8Array>)), limits.maxBytes - bytes);
    } catch (err) {
      if (!(err instanceof SecretInFile)) throw err;
      warnings.push(`the file ${JSON.stringify(name)} held ${err.label} and was not kept: a run's files are not masked, so one that holds a secret is left out`);
      continue;
    }
    if (saved === 'too_large') {
      left.push({ name, limit: 'bytes' });
      continue;
    }
    count++;
    bytes += saved.bytes;
  }
  if (warnings.length > 0) o.logger.warn({ withheld: warnings.length }, "files of the run held its secrets and were not kept");
  if (left.length === 0) return { problem: null, warnings };
  o.logger.info({ kept: count, notKept: left.length }, "the run's files passed its limits");
  return { problem: limitDetail(left, limits, count), warnings };
}

/**
 * The outcome once the files are kept: a run whose files passed a limit fails with `timeout`, the spec's reason for
 * an allowance that ran out (API-DECISIONS: time, steps, spend), and a detail naming the limit and the files; a run
 * that had failed already keeps its reason and detail, and gets the files' problem as a warning.
 */
export function withFilesProblem(outcome: RunOutcome, kept: RunFilesKept): RunOutcome {
  const warnings = [...outcome.warnings, ...kept.warnings];
  if (kept.problem === null) return { ...outcome, warnings };
  if (outcome.status === 'failed') return { ...outcome, warnings: [...warnings, kept.problem] };
  return failedOutcome('timeout', kept.problem, { evidence: outcome.evidence, warnings });
}

function limitDetail(left: readonly { name: string; limit: OutputRefusal['limit'] }[], limits: OutputLimits, kept: number): string {
  const parts: string[] = [];
  const byCount = left.filter((file) => file.limit === 'count').map((file) => file.name);
  const byBytes = left.filter((file) => file.limit === 'bytes').map((file) => file.name);
  if (byCount.length > 0) parts.push(`more than run_files.max_count (${limits.maxCount}) files: ${names(byCount)} not kept`);
  if (byBytes.length > 0) parts.push(`more than run_files.max_total_mb (${limits.maxBytes / MIB} MiB) in total: ${names(byBytes)} not kept`);
  return `the run's files passed its limits, ${parts.join('; ')}; the ${kept} file${kept === 1 ? '' : 's'} within them ${kept === 1 ? 'was' : 'were'} kept`;
}

/** The first few names, quoted as JSON so that an odd one reads as a name. */
function names(list: readonly string[]): string {
  const shown = list.slice(0, 3).map((name) => JSON.stringify(name)).join(', ');
  return list.length > 3 ? `${shown} and ${list.length - 3} more` : shown;
}
