import { ConflictError, InvalidRequestError, NotFoundError, ResourceMissingError } from '../errors.js';
import { isoTime } from '../clock.js';
import type { Resources } from '../resources.js';
import type { OrgRow } from '../store/orgs-store.js';

export const DEFAULT_ORG_NAME = 'default';
export const DEFAULT_PROJECT_NAME = 'API Runs';

export interface Org {
  id: string;
  object: 'organization';
  name: string;
  daily_cap_usd: number | null;
  /** False for a test-mode twin (issue 25), which operators' lists do not show. */
  livemode: boolean;
  created_at: string;
}

/**
 * A twin's name: unique (its live organisation's id is), and never a name `create` accepts (no colon there), so no
 * operator's organisation can take it.
 */
/** What names a test-mode twin: `test:<live organisation id>` is its stored name, and `test:<name>` finds it too. */
const TWIN_PREFIX = 'test:';

function twinName(liveOrgId: string): string {
  return `${TWIN_PREFIX}${liveOrgId}`;
}

export class OrgsService {
  constructor(private readonly r: Pick<Resources, 'store' | 'clock' | 'ids'>) {}

  /** Creates an organisation and its "API Runs" project in one transaction. */
  create(name: string, options: { dailyCapUsd?: number | null } = {}): Org {
    const clean = name.trim();
    if (!/^[\w .-]{1,64}$/.test(clean)) {
      throw new InvalidRequestError('invalid_name', 'An organisation name is 1-64 letters, digits, spaces, dots, dashes or underscores', { param: 'name' });
    }
    const { store } = this.r;
    return store.transaction(() => {
      if (store.orgs.getByName(clean)) throw new ConflictError('org_exists', `An organisation named '${clean}' already exists`);
      return toOrg(this.insert(clean, options.dailyCapUsd ?? null, null));
    });
  }

  /**
   * The test-mode twin of a live organisation (issue 25; docs/api.md, Test mode), made with its own "API Runs"
   * project on first need. It starts with its live organisation's daily cap, and keeps its own spend against it.
   */
  testTwin(liveOrgId: string): Org {
    const { store } = this.r;
    return store.transaction(() => {
      const live = store.orgs.get(liveOrgId);
      if (!live || live.live_org_id !== null) throw new NotFoundError('organisation', liveOrgId);
      return toOrg(store.orgs.testTwin(liveOrgId) ?? this.insert(twinName(liveOrgId), live.daily_cap_usd, liveOrgId));
    });
  }

  /** Whether an organisation is live (false for a test-mode twin); an unknown one counts as live. */
  isLive(orgId: string): boolean {
    return (this.r.store.orgs.get(orgId)?.live_org_id ?? null) === null;
  }

  private insert(name: string, dailyCapUsd: number | null, liveOrgId: string | null): OrgRow {
    const { store } = this.r;
    const now = isoTime(this.r.clock.now());
    const row: OrgRow = { id: this.r.ids('org'), name, daily_cap_usd: dailyCapUsd, live_org_id: liveOrgId, created_at: now, updated_at: now };
    store.orgs.insert(row);
      store.projects.insert({
        id: this.r.ids('proj'),
        org_id: row.id,
        name: DEFAULT_PROJECT_NAME,
        description: 'Runs started without a project_id.',
        is_default: 1,
        created_at: now,
        updated_at: now,
    });
    return row;
  }

  /** The live organisations: test-mode twins are reached through their live organisation. */
  list(): Org[] {
    return this.r.store.orgs.list().map(toOrg);
  }

  /** Finds an organisation by id or by name; `test:<id or name>` is that organisation's test-mode twin. */
  resolve(idOrName: string): Org {
    const row = this.r.store.orgs.get(idOrName) ?? this.r.store.orgs.getByName(idOrName);
    if (row) return toOrg(row);
    if (idOrName.startsWith(TWIN_PREFIX)) return this.twinOf(idOrName.slice(TWIN_PREFIX.length), idOrName);
    throw new NotFoundError('organisation', idOrName);
  }

  /** `test:<live organisation's id or name>`: its test-mode twin, which its first test key made. */
  private twinOf(liveIdOrName: string, asked: string): Org {
    const live = this.r.store.orgs.get(liveIdOrName) ?? this.r.store.orgs.getByName(liveIdOrName);
    if (!live || live.live_org_id !== null) throw new NotFoundError('organisation', asked);
    const twin = this.r.store.orgs.testTwin(live.id);
    if (!twin) throw new ResourceMissingError(`The organisation '${liveIdOrName}' has no test mode yet: its first test key makes it (errand keys create --test --org ${liveIdOrName})`);
    return toOrg(twin);
  }

  /**
   * Organisations whose kept count of queued and running runs (what `limits.max_pending_runs` is checked against)
   * differs from a count of their runs. The daemon recounts at start; `errand doctor` reports a drift.
   */
  activeRunCountDrift(): { org_id: string; kept: number; counted: number }[] {
    return this.r.store.runs.activeCountDrift();
  }

  /** The first start of a data directory creates the `default` organisation. Returns it when it was created. */
  ensureDefault(): Org | null {
    if (this.r.store.orgs.list().length > 0) return null;
    return this.create(DEFAULT_ORG_NAME);
  }
}

function toOrg(row: OrgRow): Org {
  return { id: row.id, object: 'organization', name: row.name, daily_cap_usd: row.daily_cap_usd, livemode: row.live_org_id === null, created_at: row.created_at };
}
