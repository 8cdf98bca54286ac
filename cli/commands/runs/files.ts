import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type { Command } from 'commander';
import { APIError, type Errand, type RunFile } from '../../api.js';
import { UserError } from '../../cli-errors.js';
import { contextOf, type CliContext } from '../../context.js';
import { examples } from '../../help.js';

export function registerRunsFiles(runs: Command): void {
  runs
    .command('files')
    .description("list a run's files (what its browser downloaded and its code wrote under /workspace/out/), or save them")
    .argument('<id>', 'run id (run_...)')
    .option('--save <dir>', 'download every file into this directory (made if missing), checking each SHA-256')
    .option('--clobber', 'with --save, replace files of the same name already there')
    .addHelpText('after', examples('errand runs files run_01...', 'errand runs files run_01... --save ./downloads', 'errand runs files run_01... --json'))
    .action(async (id: string, flags: { save?: string; clobber?: boolean }, cmd: Command) => {
      await runFiles(contextOf(cmd), { id, save: flags.save ?? null, clobber: flags.clobber === true });
    });
}

/** A file as `--save --json` reports it: the listed file and where it was written. */
type SavedFile = RunFile & { path: string };

export async function runFiles(ctx: CliContext, options: { id: string; save: string | null; clobber: boolean }): Promise<void> {
  const api = ctx.api();
  const page = await api.runs.files(options.id);
  if (options.save === null) {
    ctx.out.result(page, () =>
      ctx.out.table(
        page.data,
        [
          { header: 'NAME', value: (f) => f.name, max: 48 },
          { header: 'SIZE', value: (f) => f.size },
          { header: 'TYPE', value: (f) => f.content_type, max: 32 },
          { header: 'SHA256', value: (f) => f.sha256.slice(0, 16) },
          { header: 'LINK EXPIRES', value: (f) => f.expires_at },
        ],
        'no files: the run returned none, or has not ended',
      ),
    );
    return;
  }
  const dir = resolve(options.save);
  await mkdir(dir, { recursive: true });
  const saved: SavedFile[] = [];
  for (const file of page.data) saved.push({ ...file, path: await saveFile(api, file, dir, options.clobber) });
  ctx.out.result({ ...page, data: saved }, () => {
    for (const file of saved) ctx.out.line(`saved ${file.path} (${file.size} bytes)`);
    if (saved.length === 0) ctx.out.note('no files: the run returned none, or has not ended');
  });
}

/**
 * Streams one file to `dir` under its name, through a partial file renamed into place once its SHA-256 matches
 * the listing's. The daemon sanitised the name; `basename` keeps it in `dir` whatever a daemon answers.
 */
async function saveFile(api: Errand, file: RunFile, dir: string, clobber: boolean): Promise<string> {
  const target = join(dir, basename(file.name));
  if (!clobber && (await stat(target).then(() => true, () => false))) {
    throw new UserError(`${target} exists already; remove it or pass --clobber`, 'file_exists');
  }
  let res: Response;
  try {
    res = await api.runs.downloadFile(file.url);
  } catch (err) {
    if (err instanceof APIError) throw new UserError(`downloading ${file.name} failed: HTTP ${err.status}`, 'download_failed');
    throw err;
  }
  if (res.body === null) throw new UserError(`downloading ${file.name} failed: HTTP ${res.status}`, 'download_failed');
  const partial = join(dir, `.${basename(file.name)}.part`);
  const hash = createHash('sha256');
  try {
    await pipeline(
      Readable.fromWeb(res.body as NodeReadableStream<Uint8Array>),
      async function* (source: AsyncIterable<Buffer>) {
        for await (const chunk of source) {
          hash.update(chunk);
          yield chunk;
        }
      },
      createWriteStream(partial),
    );
    const sha256 = hash.digest('hex');
    if (sha256 !== file.sha256) throw new UserError(`${file.name} arrived with SHA-256 ${sha256}, not the listed ${file.sha256}`, 'checksum_mismatch');
    await rename(partial, target);
  } catch (err) {
    await rm(partial, { force: true });
    throw err;
  }
  return target;
}
