import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isoTime, systemClock } from '../../../src/clock.js';
import { linkLifecycle } from '../../../src/connections/oauth-client/link-lifecycle.js';
import { createIdFactory } from '../../../src/ids.js';
import type { StatusMove } from '../../../src/lifecycle.js';
import { OrgsService } from '../../../src/orgs/orgs-service.js';
import type { LinkStatus } from '../../../src/store/connections-store.js';
import { migrate } from '../../../src/store/migrate.js';
import { openStore, type Store } from '../../../src/store/store.js';
import { movesOf, walkEveryMove } from '../../fixtures/lifecycle-walk.js';
import { tempDir } from '../../fixtures/temp-dir.js';

const MIGRATIONS = new URL('../../../src/store/migrations/', import.meta.url).pathname;

/** The button opens a link, the provider's answer is taken once, and the flow ends (issue 20). */
const LINK_MOVES = ['answered>authenticated', 'answered>failed', 'opened>answered', 'pending>opened'];

describe('the connect link lifecycle', () => {
  let dir: ReturnType<typeof tempDir>;
  let store: Store;
  let orgId: string;
  let connectionId: string;
  const ids = createIdFactory();
  const now = Date.parse('2026-06-01T12:00:00.000Z');

  beforeEach(() => {
    dir = tempDir('errand-link-lifecycle-');
    store = openStore(join(dir.path, 'errand.db'));
    orgId = new OrgsService({ store, clock: systemClock, ids }).create('linker').id;
    connectionId = ids('conn');
    store.connections.insert({
      id: connectionId, org_id: orgId, project_id: null, name: 'acme', type: 'oauth', env_var_name: 'ACME_TOKEN', provider: 'acme', auth_status: 'pending',
      created_at: isoTime(now), updated_at: isoTime(now),
    });
  });
  afterEach(() => {
    store.close();
    dir.remove();
  });

  /** A link standing at `status`, unexpired. */
  function link(status: LinkStatus): string {
    const id = ids('clk');
    store.connections.insertLink({ id, org_id: orgId, connection_id: connectionId, redirect_url: null, expires_at: now + 60_000, created_at: isoTime(now) });
    store.db.prepare('UPDATE connection_links SET status = @status WHERE id = @id').run({ status, id });
    return id;
  }

  /** The store's statement for each move: opening, taking the provider's answer, and ending. */
  function apply(id: string, move: StatusMove<LinkStatus>): boolean {
    switch (move.to) {
      case 'opened':
        return store.connections.openLink(id, move, { stateHash: `state-${id}`, verifierEnc: 'sealed', openedAt: isoTime(now) }, now);
      case 'answered':
        return store.transaction((uow) => store.connections.finishLink(uow, id, move, isoTime(now)));
      default:
        return store.transaction((uow) => store.connections.endLink(uow, id, move, move.to === 'failed' ? 'the provider said no' : null));
    }
  }

  it('moves a link only as its table says', () => {
    expect(movesOf(linkLifecycle)).toEqual(LINK_MOVES);
    walkEveryMove(linkLifecycle, {
      put: link,
      read: (id) => store.connections.getLink(id),
      statusOf: (id) => store.connections.getLink(id)!.status,
      apply,
    });
  });

  it('opens no link once it has expired', () => {
    const id = link('pending');
    expect(store.connections.openLink(id, linkLifecycle.move('pending', 'opened'), { stateHash: 'late', verifierEnc: 'sealed', openedAt: isoTime(now + 60_000) }, now + 60_000)).toBe(false);
    expect(store.connections.getLink(id)).toMatchObject({ status: 'pending', opened_at: null, state_hash: null });
  });

  it('gives the links of an older database the status their columns said', () => {
    const home = join(dir.path, 'older');
    const early = join(home, 'migrations');
    mkdirSync(early, { recursive: true });
    for (const f of readdirSync(MIGRATIONS).filter((f) => f < '018')) copyFileSync(join(MIGRATIONS, f), join(early, f));
    const db = new Database(join(home, 'errand.db'));
    try {
      migrate(db, early);
      const at = isoTime(now);
      db.prepare("INSERT INTO orgs (id, name, created_at, updated_at) VALUES ('org_a', 'a', @at, @at)").run({ at });
      db.prepare(
        "INSERT INTO connections (id, org_id, name, type, provider, auth_status, created_at, updated_at) VALUES ('conn_a', 'org_a', 'acme', 'oauth', 'acme', 'pending', @at, @at)",
      ).run({ at });
      const insert = db.prepare(
        `INSERT INTO connection_links (id, org_id, connection_id, expires_at, opened_at, finished_at, outcome, outcome_detail, created_at)
         VALUES (@id, 'org_a', 'conn_a', 0, @opened, @finished, @outcome, @detail, @at)`,
      );
      insert.run({ id: 'clk_pending', opened: null, finished: null, outcome: null, detail: null, at });
      insert.run({ id: 'clk_opened', opened: at, finished: null, outcome: null, detail: null, at });
      insert.run({ id: 'clk_answered', opened: at, finished: at, outcome: null, detail: null, at });
      insert.run({ id: 'clk_authenticated', opened: at, finished: at, outcome: 'authenticated', detail: null, at });
      insert.run({ id: 'clk_failed', opened: at, finished: at, outcome: 'failed', detail: 'access_denied', at });
      migrate(db, MIGRATIONS);
      expect(db.prepare('SELECT id, status, outcome_detail FROM connection_links ORDER BY id').all()).toEqual([
        { id: 'clk_answered', status: 'answered', outcome_detail: null },
        { id: 'clk_authenticated', status: 'authenticated', outcome_detail: null },
        { id: 'clk_failed', status: 'failed', outcome_detail: 'access_denied' },
        { id: 'clk_opened', status: 'opened', outcome_detail: null },
        { id: 'clk_pending', status: 'pending', outcome_detail: null },
      ]);
      expect((db.prepare("SELECT name FROM pragma_table_info('connection_links')").all() as { name: string }[]).map((c) => c.name)).not.toContain('outcome');
    } finally {
      db.close();
    }
  });
});
