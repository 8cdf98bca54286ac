import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { BrowserContext } from 'playwright-core';
import type { MaskForm, RecordingResult } from '../../../src/sandbox/protocol.js';
import { CappedText } from './capped-text.js';
import type { MaskedValues } from './masked-values.js';

const SCREENCAST_PREFIX = 'screencast/';
/** The video's size when its frames differ: the viewport's (templates/sandbox/supervisor/browser.ts). */
const FITTED_SIZE: Size = { width: 1280, height: 800 };
const FFMPEG_TIMEOUT_MS = 10 * 60 * 1000;

interface Frame {
  file: string;
  /** Milliseconds on the trace's monotonic clock. */
  timestamp: number;
}

interface Size {
  width: number;
  height: number;
}

type ZipBundle = typeof import('playwright-core/lib/utilsBundle');

/**
 * A run's recording: a Playwright trace of the browser (actions, DOM snapshots, network, console, and the screencast
 * frames that tracing takes with `screenshots`), and a video encoded from those frames with ffmpeg, so that the
 * video needs no screencast of its own. Its files live in a directory of the supervisor's, which the task user cannot
 * read, and are served only once `finish` has replaced every form of the run's secrets in the trace.
 */
export class Recording {
  private wanted = false;
  private traced: BrowserContext | null = null;
  private dir: string | null = null;
  private finished: { trace: string | null; video: string | null } = { trace: null, video: null };
  /**
   * playwright-core's zip reader and writer: loading them takes a good part of a second, so it starts when the browser
   * is first recorded or warmed, not at the finish (and not at all for a run that never opens the browser).
   */
  private zip: Promise<ZipBundle> | null = null;

  constructor(private readonly ffmpeg: string) {}

  /** From now on the browser is recorded: the one running now, or the next one launched. */
  async start(context: BrowserContext | null): Promise<void> {
    this.wanted = true;
    if (context !== null) await this.attach(context);
  }

  /** Called for each browser launched: a crashed browser's trace is lost, its successor's is kept. */
  async attach(context: BrowserContext): Promise<void> {
    if (!this.wanted || this.traced === context) return;
    await context.tracing.start({ screenshots: true, snapshots: true });
    this.traced = context;
    void this.loadZip();
  }

  /**
   * Loads the zip reader and writer now. A browser started ahead of its run (`BrowserSession.warm`) loads them then:
   * loaded when the recording starts, they would take the CPU from the run's first page.
   */
  loadZip(): Promise<ZipBundle> {
    if (this.zip === null) {
      this.zip = import('playwright-core/lib/utilsBundle');
      // Awaited by finish; a recording never finished must not leave a rejection unhandled.
      this.zip.catch(() => undefined);
    }
    return this.zip;
  }

  /**
   * Stops tracing, writes the masked trace and the video; answers what there is to fetch. A browser that was only
   * started ahead of the run (`used` false: no action, no person's input) makes no recording, as one never started
   * makes none.
   */
  async finish(context: BrowserContext | null, mask: readonly MaskForm[], used: boolean, codes: MaskedValues): Promise<RecordingResult> {
    this.wanted = false;
    const traced = this.traced;
    this.traced = null;
    if (traced === null || traced !== context) return { trace: null, video: null, detail: 'the browser was not recorded' };
    if (!used) {
      await traced.tracing.stop();
      return { trace: null, video: null, detail: 'the browser was not used' };
    }
    this.dir ??= await mkdtemp(join(tmpdir(), 'errand-recording-'));
    const raw = join(this.dir, 'raw-trace.zip');
    await traced.tracing.stop({ path: raw });
    const trace = join(this.dir, 'trace.zip');
    const { frames, size } = await maskTrace(await this.loadZip(), raw, trace, mask, codes, join(this.dir, 'frames'));
    await rm(raw, { force: true });
    this.finished.trace = trace;
    const traceBytes = (await stat(trace)).size;
    if (frames.length === 0) return { trace: { bytes: traceBytes }, video: null, detail: 'the trace has no screencast frames' };
    const video = join(this.dir, 'video.webm');
    try {
      await encodeVideo(this.ffmpeg, join(this.dir, 'frames'), frames, size, video);
    } catch (error) {
      return { trace: { bytes: traceBytes }, video: null, detail: `the video could not be encoded: ${error instanceof Error ? error.message : String(error)}` };
    } finally {
      await rm(join(this.dir, 'frames'), { recursive: true, force: true });
    }
    this.finished.video = video;
    return { trace: { bytes: traceBytes }, video: { bytes: (await stat(video)).size, frames: frames.length }, detail: null };
  }

  /** The path of a finished file, or null. */
  file(kind: 'trace' | 'video'): string | null {
    return this.finished[kind];
  }

  async close(): Promise<void> {
    if (this.dir !== null) await rm(this.dir, { recursive: true, force: true });
  }
}

/**
 * Copies the trace zip from `source` to `target` with every mask form, every typed TOTP code and every value of the
 * saved login replaced in every file but the screencast frames (JPEGs, whose pixels no text search reaches: the page
 * masks a secret's field instead, see browser.ts).
 * Answers the frames in time order, written to `framesDir` for the encoder, and the size of the first one, or null
 * when the frames differ in size (the trace's events give the viewport's, not the frames').
 */
async function maskTrace({ yauzl, yazl }: ZipBundle, source: string, target: string, mask: readonly MaskForm[], codes: MaskedValues, framesDir: string): Promise<{ frames: Frame[]; size: Size | null }> {
  await mkdir(framesDir, { recursive: true });
  const replacements = mask.map(({ form, label }) => ({ form: Buffer.from(form, 'utf8'), label: Buffer.from(label, 'utf8') }));
  const writer = new yazl.ZipFile();
  const written = pipeline(writer.outputStream, createWriteStream(target, { mode: 0o600 }));
  const frameFiles = new Set<string>();
  const shown = new Map<string, Frame>();
  const sizes = new Set<string>();
  await new Promise<void>((resolve, reject) => {
    yauzl.open(source, { lazyEntries: true }, (openError, zip) => {
      if (openError !== null) return reject(openError);
      zip.on('error', reject);
      zip.on('end', resolve);
      zip.on('entry', (entry) => {
        zip.openReadStream(entry, (readError, stream) => {
          if (readError !== null) return reject(readError);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('error', reject);
          stream.on('end', () => {
            void (async () => {
              const body = Buffer.concat(chunks);
              if (entry.fileName.startsWith(SCREENCAST_PREFIX)) {
                frameFiles.add(entry.fileName);
                const size = jpegSize(body);
                sizes.add(size === null ? 'unknown' : `${size.width}x${size.height}`);
                await writeFile(join(framesDir, frameName(entry.fileName)), body);
                writer.addBuffer(body, entry.fileName, { compress: false });
              } else {
                const masked = codes.bytes(replaceForms(body, replacements));
                if (entry.fileName.endsWith('.trace')) for (const frame of screencastFrames(masked)) shown.set(frame.file, frame);
                writer.addBuffer(masked, entry.fileName);
              }
              zip.readEntry();
            })().catch(reject);
          });
        });
      });
      zip.readEntry();
    });
  });
  writer.end();
  await written;
  const frames = [...frameFiles]
    .flatMap((file) => {
      const frame = shown.get(file);
      return frame === undefined ? [] : [{ ...frame, file: frameName(file) }];
    })
    .sort((a, b) => a.timestamp - b.timestamp);
  const [only] = sizes;
  const [width, height] = sizes.size === 1 && only !== 'unknown' ? only!.split('x').map(Number) : [];
  return { frames, size: width === undefined || height === undefined ? null : { width, height } };
}

/** A baseline or progressive JPEG's size, from its start-of-frame segment; null for anything else. */
function jpegSize(jpeg: Buffer): Size | null {
  if (jpeg.readUInt16BE(0) !== 0xffd8) return null;
  for (let at = 2; at + 9 < jpeg.length; ) {
    if (jpeg[at] !== 0xff) return null;
    const marker = jpeg[at + 1]!;
    if (marker === 0xc0 || marker === 0xc1 || marker === 0xc2) return { height: jpeg.readUInt16BE(at + 5), width: jpeg.readUInt16BE(at + 7) };
    at += 2 + jpeg.readUInt16BE(at + 2);
  }
  return null;
}

/** Each form replaced by its label, longest forms first (the order the daemon sends them in). */
function replaceForms(body: Buffer, replacements: readonly { form: Buffer; label: Buffer }[]): Buffer {
  let out = body;
  for (const { form, label } of replacements) {
    if (form.length === 0 || out.indexOf(form) === -1) continue;
    const parts: Buffer[] = [];
    let from = 0;
    for (let at = out.indexOf(form); at !== -1; at = out.indexOf(form, from)) {
      parts.push(out.subarray(from, at), label);
      from = at + form.length;
    }
    parts.push(out.subarray(from));
    out = Buffer.concat(parts);
  }
  return out;
}

/** The trace's `screencast-frame` events: which file each frame is in, and when it was shown. */
function screencastFrames(trace: Buffer): Frame[] {
  const frames: Frame[] = [];
  for (const line of trace.toString('utf8').split('\n')) {
    if (!line.includes('"screencast-frame"')) continue;
    try {
      const event = JSON.parse(line) as { type?: unknown; file?: unknown; timestamp?: unknown };
      const { file, timestamp } = event;
      if (event.type === 'screencast-frame' && typeof file === 'string' && typeof timestamp === 'number') frames.push({ file, timestamp });
    } catch {
      // A line cut short by a crash: the frames before it still make a video.
    }
  }
  return frames;
}

function frameName(file: string): string {
  return file.slice(file.lastIndexOf('/') + 1);
}

/**
 * VP8 in WebM, which every current browser plays, each frame shown for as long as the page showed it. VP8 at
 * ffmpeg's realtime deadline costs far less CPU than H.264 or VP9 at their defaults on a run's few frames. The video
 * has the frames' size (Playwright's screencast fits the viewport in 800×800); frames of differing sizes, which
 * scaling costs as much again as encoding, are fitted into the viewport's.
 */
async function encodeVideo(ffmpeg: string, framesDir: string, frames: readonly Frame[], size: Size | null, target: string): Promise<void> {
  const lines = ['ffconcat version 1.0'];
  frames.forEach((frame, i) => {
    const next = frames[i + 1];
    lines.push(`file '${frame.file}'`);
    // The last frame is held a moment, so that a run of one frame still has a duration.
    lines.push(`duration ${((next === undefined ? 500 : Math.max(1, next.timestamp - frame.timestamp)) / 1000).toFixed(3)}`);
  });
  // The concat demuxer ignores the last entry's duration unless the file is named once more.
  lines.push(`file '${frames.at(-1)!.file}'`);
  const list = join(framesDir, 'frames.ffconcat');
  await writeFile(list, `${lines.join('\n')}\n`);
  // VP8 in yuv420p needs even sides.
  const even = size !== null && size.width % 2 === 0 && size.height % 2 === 0;
  const { width, height } = even ? size : FITTED_SIZE;
  const filters = even ? 'format=yuv420p' : `scale=${width}:${height}:force_original_aspect_ratio=decrease,pad=${width}:${height}:(ow-iw)/2:(oh-ih)/2,format=yuv420p`;
  const args = [
    '-hide_banner', '-loglevel', 'error', '-nostdin',
    '-f', 'concat', '-safe', '0', '-i', list,
    '-vf', filters,
    '-c:v', 'libvpx', '-deadline', 'realtime', '-cpu-used', '16', '-b:v', '1M', '-threads', '1',
    '-fps_mode', 'vfr', '-an', '-y', target,
  ];
  await new Promise<void>((resolve, reject) => {
    const child = spawn(ffmpeg, args, { stdio: ['ignore', 'ignore', 'pipe'], timeout: FFMPEG_TIMEOUT_MS });
    const stderr = new CappedText(2000);
    child.stderr.on('data', (chunk: Buffer) => stderr.append(chunk.toString('utf8')));
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`ffmpeg ended with ${signal ?? `exit code ${code}`}: ${stderr.toString().trim().split('\n')[0] ?? ''}`));
    });
  });
  if ((await stat(target)).size === 0) throw new Error('ffmpeg wrote an empty video');
}
