import { rm, rmdir } from 'node:fs/promises';
import { dirname, resolve, sep } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { isoTime } from '../clock.js';
import type { Resources } from '../resources.js';
import { dataPaths } from '../runtime/paths.js';
import { RETENTION_KINDS, type RetentionKindName, type RetentionKindSpec } from '../store/retention-store.js';
import { PurgePace } from './purge-pace.js';
import { keepMs } from './retention-windows.js';

/** What a kind would lose now (`errand gc --dry-run`). */
export interface RetentionPlanItem {
  kind: RetentionKindName;
  table: string;
  /** How long its rows are kept, in hours; null: forever. */
  keep_hours: number | null;
  /** Rows created before this go (null: none go). */
  older_than: string | null;
  rows: number;
  /** Bytes of the files that go with them. */
  bytes: number;
}

/** What one kind lost in a pass. */
export interface PurgedKind {
  kind: RetentionKindName;
  rows: number;
  files: number;
}

export interface RetentionOptions {
  /**
   * Longest a batch may hold the event loop (and so the write lock) before the next batch is made smaller; the
   * batch size follows it, so that requests arriving meanwhile wait at most about this long.
   */
  batchBudgetMs?: number;
  /**
   * After each batch the purge rests this many times as long as the batch took, so that it takes at most a share of
   * the event loop (1 / (1 + factor)) and requests never queue behind batch after batch. This is the factor while
   * the daemon is quiet; while it is busy the factor grows (see PurgePace).
   */
  restFactor?: number;
  /** Told of what each batch removed (metrics). */
  onPurged?: (kind: RetentionKindName, rows: number) => void;
}

const MIN_BATCH = 16;
const MAX_BATCH = 4096;
const FIRST_BATCH = 128;
const MIN_VACUUM_PAGES = 16;
const MAX_VACUUM_PAGES = 4096;

/**
 * Purges what has been kept long enough, kind by kind (`RETENTION_KINDS`), in small batches: each batch is one
 * short transaction, and the next one waits a multiple of the time it took (larger while the daemon is busy, see
 * PurgePace), so API requests (and the group commit of run creations) get the event loop and the write lock between
 * batches. The batch size adapts to `batchBudgetMs`. A batch's files are removed before its rows: a crash in between leaves a row whose file is gone (its link answers 404,
 * like a purged one's), never a file no row names. Then free pages go back to the file system (incremental vacuum),
 * in steps paced the same way.
 */
export class RetentionService {
  private readonly budgetMs: number;
  private readonly pace: PurgePace;
  /** The directory each kind's file paths are relative to, resolved. */
  private readonly fileRoots: ReadonlyMap<string, string>;
  private batch = FIRST_BATCH;
  private vacuumPages = FIRST_BATCH;

  constructor(
    private readonly r: Pick<Resources, 'store' | 'clock' | 'logger' | 'config' | 'home'>,
    private readonly options: RetentionOptions = {},
  ) {
    this.budgetMs = options.batchBudgetMs ?? 4;
    this.pace = new PurgePace(options.restFactor ?? 2);
    const paths = dataPaths(r.home);
    this.fileRoots = new Map((RETENTION_KINDS as readonly RetentionKindSpec[]).flatMap((k) => (k.file === undefined ? [] : [[k.name, resolve(paths[k.file.root])]])));
  }

  /** What a pass would purge now, without purging it. */
  plan(): RetentionPlanItem[] {
    const now = this.r.clock.now();
    return RETENTION_KINDS.map(({ name, table }) => {
      const keep = keepMs(name, this.r.config);
      if (keep === null) return { kind: name, table, keep_hours: null, older_than: null, rows: 0, bytes: 0 };
      const count = this.r.store.retention.count(name, this.r.store.retention.bound(name, now - keep));
      return { kind: name, table, keep_hours: keep / 3_600_000, older_than: isoTime(now - keep), ...count };
    });
  }

  /** One pass over every kind; stops between batches once `signal` aborts. */
  async purge(signal?: AbortSignal): Promise<PurgedKind[]> {
    const now = this.r.clock.now();
    const purged: PurgedKind[] = [];
    for (const { name } of RETENTION_KINDS) {
      if (signal?.aborted) break;
      const keep = keepMs(name, this.r.config);
      if (keep === null) continue;
      const result = await this.purgeKind(name, now - keep, signal);
      if (result.rows > 0) this.r.logger.info(result, 'retention purged');
      purged.push(result);
    }
    await this.giveBackSpace(signal);
    if (purged.some((p) => p.rows > 0)) this.r.logger.info({ ms: Math.round(this.r.clock.now() - now) }, 'retention pass finished');
    return purged;
  }

  private async purgeKind(kind: RetentionKindName, cutoffMs: number, signal: AbortSignal | undefined): Promise<PurgedKind> {
    const store = this.r.store;
    const bound = store.retention.bound(kind, cutoffMs);
    const result: PurgedKind = { kind, rows: 0, files: 0 };
    while (!signal?.aborted) {
      const limit = this.batch;
      let started = performance.now();
      const batch = store.retention.nextBatch(kind, bound, limit);
      let spent = performance.now() - started;
      if (batch.keys.length === 0) break;
      result.files += await this.removeFiles(kind, batch.files);
      started = performance.now();
      const rows = store.transaction((uow) => store.retention.removeBatch(uow, kind, bound, batch.keys));
      spent += performance.now() - started;
      this.batch = this.adapt(this.batch, spent, MIN_BATCH, MAX_BATCH);
      result.rows += rows;
      if (rows > 0) this.options.onPurged?.(kind, rows);
      if (batch.keys.length < limit) break;
      await this.rest(spent, signal);
    }
    return result;
  }

  /**
   * Removes the files of a batch, and the directory each was in (a run's, a received email's) once it is empty;
   * answers how many were there.
   */
  private async removeFiles(kind: RetentionKindName, paths: string[]): Promise<number> {
    const root = this.fileRoots.get(kind);
    if (root === undefined) return 0;
    let removed = 0;
    for (const path of paths) {
      const file = resolve(root, path);
      // Paths are written by the daemon, relative to the kind's directory; one that leads outside it is left alone.
      if (!file.startsWith(root + sep)) {
        this.r.logger.warn({ kind, path }, 'retention left a file outside its directory alone');
        continue;
      }
      try {
        await rm(file);
        removed += 1;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
      await rmdir(dirname(file)).catch(() => undefined);
    }
    return removed;
  }

  /**
   * Rewrites the whole database file so that it gives every free page back (`errand gc --vacuum`), and makes later
   * passes vacuum incrementally. It holds the write lock until it is done: only with the daemon stopped.
   */
  vacuumFully(): void {
    this.r.store.retention.vacuumFully();
  }

  /** Incremental vacuum until no free page is left, in paced steps; nothing when the file does not vacuum that way. */
  private async giveBackSpace(signal: AbortSignal | undefined): Promise<void> {
    const store = this.r.store;
    if (!store.retention.vacuumsIncrementally()) return;
    let freed = 0;
    while (!signal?.aborted) {
      const free = store.retention.freePages();
      if (free === 0) break;
      const pages = Math.min(free, this.vacuumPages);
      const started = performance.now();
      store.transaction((uow) => store.retention.vacuumStep(uow, pages));
      const spent = performance.now() - started;
      this.vacuumPages = this.adapt(this.vacuumPages, spent, MIN_VACUUM_PAGES, MAX_VACUUM_PAGES);
      freed += pages;
      await this.rest(spent, signal);
    }
    if (freed > 0) this.r.logger.info({ pages: freed }, 'retention gave free pages back to the file system');
  }

  /** Rests after a batch; whatever ran on the event loop meanwhile is the daemon's other work (see PurgePace). */
  private async rest(spentMs: number, signal: AbortSignal | undefined): Promise<void> {
    const before = performance.eventLoopUtilization();
    await sleep(this.pace.restMs(spentMs), undefined, signal ? { signal } : {}).catch(() => undefined);
    this.pace.observed(performance.eventLoopUtilization(before).utilization);
  }

  private adapt(size: number, spentMs: number, min: number, max: number): number {
    if (spentMs > this.budgetMs) return Math.max(min, Math.floor(size / 2));
    if (spentMs < this.budgetMs / 2) return Math.min(max, size * 2);
    return size;
  }
}
