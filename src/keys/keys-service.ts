import { AuthenticationError, InvalidRequestError, NotFoundError } from '../errors.js';
import { isoTime } from '../clock.js';
import type { Resources } from '../resources.js';
import type { ApiKeyRow } from '../store/keys-store.js';
import { mintKey, parseKey, secretMatches } from './api-key.js';
import { OrgsService } from '../orgs/orgs-service.js';

export interface ApiKeyInfo {
  id: string;
  object: 'api_key';
  org_id: string;
  name: string | null;
  monthly_cap_usd: number | null;
  /** The max_cost_usd of the key's runs that name none (nor their job): a hard cost limit per run; null: none. */
  max_run_cost_usd: number | null;
  /** False for a test-mode key (`ek_test_...`), whose organisation is its live organisation's test-mode twin. */
  livemode: boolean;
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
}

export interface CreatedKey {
  id: string;
  key: string;
  org_id: string;
  livemode: boolean;
}

/** The authenticated caller of a request. */
export interface Principal {
  keyId: string;
  orgId: string;
  monthlyCapUsd: number | null;
  /** The max_cost_usd of its runs that give none (nor their job). */
  maxRunCostUsd: number | null;
}

const MAX_CACHED_PRINCIPALS = 10_000;
/** `last_used_at` is written at most this often per key: it tells people whether a key is in use, not how much. */
const LAST_USED_RESOLUTION_MS = 60_000;

export class KeysService {
  /**
   * Principals of tokens already checked, valid while no other connection has written to the database: keys are
   * revoked by the CLI, whose commit changes the data version. Saves a lookup and a hash on every request.
   */
  private readonly principals = new Map<string, { principal: Principal; version: number }>();
  /** When each key's use was last written, and the uses waiting to be written after the current turn. */
  private readonly usedWrittenAt = new Map<string, number>();
  private readonly usesToWrite = new Map<string, string>();

  constructor(private readonly r: Pick<Resources, 'store' | 'clock' | 'ids'>) {}

  /**
   * A key of `orgId`; with `test`, a test-mode key (`ek_test_...`) of the organisation's test-mode twin, made on
   * first need (issue 25).
   */
  create(options: { orgId: string; name?: string | null; monthlyCapUsd?: number | null; maxRunCostUsd?: number | null; test?: boolean }): CreatedKey {
    if (options.monthlyCapUsd != null && !(Number.isFinite(options.monthlyCapUsd) && options.monthlyCapUsd >= 0)) {
      throw new InvalidRequestError('invalid_cap', 'monthly cap must be a non-negative number of USD', { param: 'monthly_cap_usd' });
    }
    if (options.maxRunCostUsd != null && !(Number.isFinite(options.maxRunCostUsd) && options.maxRunCostUsd > 0)) {
      throw new InvalidRequestError('invalid_cap', 'the default cost limit of a run must be a positive number of USD', { param: 'max_run_cost_usd' });
    }
    const org = this.r.store.orgs.get(options.orgId);
    if (!org || org.live_org_id !== null) throw new NotFoundError('organisation', options.orgId);
    const orgId = options.test === true ? new OrgsService(this.r).testTwin(org.id).id : org.id;
    const id = this.r.ids('key');
    const minted = mintKey(id, options.test !== true);
    this.r.store.keys.insert({
      id,
      org_id: orgId,
      name: options.name ?? null,
      secret_hash: minted.hash,
      monthly_cap_usd: options.monthlyCapUsd ?? null,
      max_run_cost_usd: options.maxRunCostUsd ?? null,
      created_at: isoTime(this.r.clock.now()),
      revoked_at: null,
      last_used_at: null,
    });
    return { id, key: minted.token, org_id: orgId, livemode: options.test !== true };
  }

  /** Keys of every organisation, or of one live organisation with its test-mode twin's. */
  list(orgId?: string): ApiKeyInfo[] {
    if (orgId === undefined) return this.r.store.keys.list().map((row) => toInfo(row, this.livemodeOf(row.org_id)));
    const twin = this.r.store.orgs.testTwin(orgId);
    const rows = [...this.r.store.keys.list(orgId), ...(twin === undefined ? [] : this.r.store.keys.list(twin.id))];
    return rows.sort((a, b) => (a.id < b.id ? -1 : 1)).map((row) => toInfo(row, this.livemodeOf(row.org_id)));
  }

  private livemodeOf(orgId: string): boolean {
    return (this.r.store.orgs.get(orgId)?.live_org_id ?? null) === null;
  }

  revoke(id: string): ApiKeyInfo {
    const row = this.r.store.keys.get(id);
    if (!row) throw new NotFoundError('API key', id);
    this.r.store.keys.revoke(id, isoTime(this.r.clock.now()));
    this.principals.clear();
    return toInfo(this.r.store.keys.get(id)!, this.livemodeOf(row.org_id));
  }

  /** Resolves a bearer token to its principal, or throws 401 without saying which part was wrong. */
  authenticate(token: string | undefined): Principal {
    if (!token) throw new AuthenticationError('missing_api_key', 'No API key: send "Authorization: Bearer <API_KEY>"');
    const version = this.r.store.dataVersion.get();
    const cached = this.principals.get(token);
    let principal: Principal;
    if (cached && cached.version === version) {
      principal = cached.principal;
    } else {
      principal = this.lookUp(token);
      if (this.principals.size >= MAX_CACHED_PRINCIPALS) this.principals.clear();
      this.principals.set(token, { principal, version });
    }
    this.noteUse(principal.keyId);
    return principal;
  }

  /**
   * The principal of a key by its id, for work a request started and the daemon carries on (an eval's runs); null
   * once the key is revoked or gone, so that nothing more is done under it.
   */
  principalById(keyId: string): Principal | null {
    const row = this.r.store.keys.get(keyId);
    if (row === undefined || row.revoked_at !== null) return null;
    return principalOf(row);
  }

  /** Records a key's use for `last_used_at`, after the request's turn and at most once a minute per key. */
  private noteUse(keyId: string): void {
    const now = this.r.clock.now();
    const written = this.usedWrittenAt.get(keyId);
    if (written !== undefined && now - written < LAST_USED_RESOLUTION_MS) return;
    this.usedWrittenAt.set(keyId, now);
    if (this.usesToWrite.size === 0) setImmediate(() => this.writeUses());
    this.usesToWrite.set(keyId, isoTime(now));
  }

  private writeUses(): void {
    const uses = [...this.usesToWrite];
    this.usesToWrite.clear();
    // A use that cannot be written (the store closing under a last request) only leaves last_used_at a minute older.
    this.r.store
      .groupTransaction(() => {
        for (const [keyId, at] of uses) this.r.store.keys.touch(keyId, at);
      })
      .catch(() => undefined);
  }

  private lookUp(token: string): Principal {
    const parsed = parseKey(token);
    const row = parsed ? this.r.store.keys.get(parsed.keyId) : undefined;
    if (!parsed || !row || !secretMatches(parsed.secret, row.secret_hash)) {
      throw new AuthenticationError('invalid_api_key', 'Invalid API key');
    }
    // A key's prefix must say its organisation's mode: a test key passed off as live (or the other way) is not a key.
    if (parsed.livemode !== this.livemodeOf(row.org_id)) throw new AuthenticationError('invalid_api_key', 'Invalid API key');
    if (row.revoked_at !== null) throw new AuthenticationError('revoked_api_key', 'This API key has been revoked');
    return principalOf(row);
  }
}

/** What a key carries for the requests it authenticates, whichever way it was presented (bearer, MCP grant, consent). */
export function principalOf(row: ApiKeyRow): Principal {
  return { keyId: row.id, orgId: row.org_id, monthlyCapUsd: row.monthly_cap_usd, maxRunCostUsd: row.max_run_cost_usd };
}

function toInfo(row: ApiKeyRow, livemode: boolean): ApiKeyInfo {
  return {
    id: row.id,
    object: 'api_key',
    org_id: row.org_id,
    name: row.name,
    monthly_cap_usd: row.monthly_cap_usd,
    max_run_cost_usd: row.max_run_cost_usd,
    livemode,
    created_at: row.created_at,
    revoked_at: row.revoked_at,
    last_used_at: row.last_used_at,
  };
}
