import { ArtifactsStore } from './artifacts-store.js';
import { ConnectionsStore } from './connections-store.js';
import { openDatabase, type Db } from './database.js';
import { DataVersion } from './data-version.js';
import { EmailsStore } from './emails-store.js';
import { EvalsStore } from './evals-store.js';
import { EventsStore } from './events-store.js';
import { FilesStore } from './files-store.js';
import { GroupCommit } from './group-commit.js';
import { IdempotencyStore } from './idempotency-store.js';
import { HumanRequestsStore } from './human-requests-store.js';
import { WaitpointsStore } from './waitpoints-store.js';
import { JobsStore } from './jobs-store.js';
import { KeysStore } from './keys-store.js';
import { McpOAuthStore } from './mcp-oauth-store.js';
import { MailboxesStore } from './mailboxes-store.js';
import { OrgsStore } from './orgs-store.js';
import { ProfilesStore } from './profiles-store.js';
import { ProjectsStore } from './projects-store.js';
import { ReceivedEmailsStore } from './received-emails-store.js';
import { RecipesStore } from './recipes-store.js';
import { RetentionStore } from './retention-store.js';
import { RunsStore } from './runs-store.js';
import { SealedValuesStore } from './sealed-values-store.js';
import { SpendStore } from './spend-store.js';
import { StepsStore } from './steps-store.js';
import { SuppressionsStore } from './suppressions-store.js';
import { UnitOfWork } from './unit-of-work.js';
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
  readonly events: EventsStore;
  readonly mcpOAuth: McpOAuthStore;
  readonly connections: ConnectionsStore;
  readonly sealed: SealedValuesStore;
  readonly mailboxes: MailboxesStore;
  readonly emails: EmailsStore;
  readonly suppressions: SuppressionsStore;
  readonly receivedEmails: ReceivedEmailsStore;
  /** Purging what has been kept long enough (src/retention). */
  readonly retention: RetentionStore;
  readonly humanRequests: HumanRequestsStore;
  /** What running runs wait for: a person, a person's control of the browser, an email (issue 32, item 4). */
  readonly waitpoints: WaitpointsStore;
  /** Uploaded files and the runs that take them as input (issue 23). */
  readonly files: FilesStore;
  /** Jobs' recipes (replay, issue 24). */
  readonly recipes: RecipesStore;
  /** Saved logins: browser states runs start with (docs/api.md, Profiles). */
  readonly profiles: ProfilesStore;
  /** Jobs' eval cases and evals (docs/api.md, Evaluations). */
  readonly evals: EvalsStore;
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
    this.events = new EventsStore(db);
    this.mcpOAuth = new McpOAuthStore(db);
    this.connections = new ConnectionsStore(db);
    this.sealed = new SealedValuesStore(db);
    this.mailboxes = new MailboxesStore(db);
    this.emails = new EmailsStore(db);
    this.suppressions = new SuppressionsStore(db);
    this.receivedEmails = new ReceivedEmailsStore(db);
    this.humanRequests = new HumanRequestsStore(db);
    this.waitpoints = new WaitpointsStore(db);
    this.files = new FilesStore(db);
    this.recipes = new RecipesStore(db);
    this.profiles = new ProfilesStore(db);
    this.evals = new EvalsStore(db);
    this.retention = new RetentionStore(db, { runs: (ids) => this.runs.forget(ids as string[]) });
    this.group = new GroupCommit(db);
  }

  /**
   * Runs `fn` in an IMMEDIATE transaction of its own, with the unit of work that writes inside it; the unit's
   * after-commit work runs once it has committed. Transactions do not nest: a store method never opens one, and
   * code inside a unit of work passes that unit on instead.
   */
  transaction<T>(fn: (uow: UnitOfWork) => T): T {
    if (this.db.inTransaction) throw new Error('a transaction is already open: pass its unit of work on instead of opening another');
    const uow = new UnitOfWork();
    const result = this.db.transaction(() => fn(uow)).immediate();
    uow.committed();
    return result;
  }

  /**
   * `transaction`, shared with the other writes of the same event-loop turn (group commit); settles after the
   * commit. `fn` must do whatever may refuse it (throw) before it writes (see GroupCommit).
   */
  groupTransaction<T>(fn: (uow: UnitOfWork) => T): Promise<T> {
    return this.group.run(fn);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}

export function openStore(path: string): Store {
  return new Store(openDatabase(path));
}
