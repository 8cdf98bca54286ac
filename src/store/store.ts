import { ArtifactsStore } from './artifacts-store.js';
import { openDatabase, type Db } from './database.js';
import { DataVersion } from './data-version.js';
import { GroupCommit } from './group-commit.js';
import { IdempotencyStore } from './idempotency-store.js';
import { JobsStore } from './jobs-store.js';
import { KeysStore } from './keys-store.js';
import { OrgsStore } from './orgs-store.js';
import { ProjectsStore } from './projects-store.js';
import { RunsStore } from './runs-store.js';
import { SpendStore } from './spend-store.js';
import { StepsStore } from './steps-store.js';
import { WebhooksStore } from './webhooks-store.js';

/** The one storage layer: every SQL statement of the product lives behind these objects. */
export class Store {
  readonly orgs: OrgsStore;
  readonly keys: KeysStore;
  readonly projects: ProjectsStore;
  readonly jobs: JobsStore;
  readonly runs: RunsStore;
  readonly spend: SpendStore;
  readonly idempotency: IdempotencyStore;
  readonly steps: StepsStore;
  readonly artifacts: ArtifactsStore;
  readonly webhooks: WebhooksStore;
  /** Tells caches when another connection has committed. */
  readonly dataVersion: DataVersion;
  private readonly group: GroupCommit;

  constructor(readonly db: Db) {
    this.dataVersion = new DataVersion(db);
    this.orgs = new OrgsStore(db);
    this.keys = new KeysStore(db);
    this.projects = new ProjectsStore(db);
    this.jobs = new JobsStore(db);
    this.runs = new RunsStore(db, this.dataVersion);
    this.spend = new SpendStore(db);
    this.idempotency = new IdempotencyStore(db);
    this.steps = new StepsStore(db);
    this.artifacts = new ArtifactsStore(db);
    this.webhooks = new WebhooksStore(db);
    this.group = new GroupCommit(db);
  }

  /** Runs `fn` in one IMMEDIATE transaction (nested calls become savepoints). */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn).immediate();
  }

  /**
   * Runs `fn` in a transaction shared with other writes of the same event-loop turn; settles after the commit.
   * `fn` must do whatever may refuse it (throw) before it writes (see GroupCommit).
   */
  groupTransaction<T>(fn: () => T): Promise<T> {
    return this.group.run(fn);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}

export function openStore(path: string): Store {
  return new Store(openDatabase(path));
}
