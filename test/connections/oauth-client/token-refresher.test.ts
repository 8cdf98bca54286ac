import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isoTime, systemClock } from '../../../src/clock.js';
import { ConnectionAuth } from '../../../src/connections/connection-auth.js';
import { ConnectionSecrets } from '../../../src/connections/connection-secrets.js';
import { OAuthClientError, type OAuthClient, type TokenSet } from '../../../src/connections/oauth-client/oauth-client.js';
import { TokenRefresher } from '../../../src/connections/oauth-client/token-refresher.js';
import { EventAnnouncer } from '../../../src/event-log/event-announcer.js';
import { EventLog } from '../../../src/event-log/event-log.js';
import { EventBus } from '../../../src/events.js';
import { createIdFactory } from '../../../src/ids.js';
import { OrgsService } from '../../../src/orgs/orgs-service.js';
import { dataPaths } from '../../../src/runtime/paths.js';
import { SecretBox } from '../../../src/secrets/secret-box.js';
import type { ConnectionRow } from '../../../src/store/connections-table.js';
import { openStore, type Store } from '../../../src/store/store.js';
import { WebhookOutbox } from '../../../src/webhooks/outbox.js';
import { tempDir } from '../../fixtures/temp-dir.js';

/** A provider whose refreshes wait for the test to answer them. */
class FakeProvider {
  calls: string[] = [];
  private answers: ((outcome: TokenSet | OAuthClientError) => void)[] = [];

  readonly client = {
    provider: { name: 'acme' },
    refresh: (refreshToken: string): Promise<TokenSet> => {
      this.calls.push(refreshToken);
      return new Promise((resolve, reject) => this.answers.push((o) => (o instanceof OAuthClientError ? reject(o) : resolve(o))));
    },
  } as unknown as OAuthClient;

  answer(outcome: TokenSet | OAuthClientError): void {
    this.answers.shift()!(outcome);
  }
}

/** Resolves once `ready` holds, looking every few milliseconds (what another daemon does is seen through the file). */
async function until(ready: () => boolean): Promise<void> {
  while (!ready()) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('TokenRefresher', () => {
  let dir: ReturnType<typeof tempDir>;
  let store: Store;
  let orgId: string;
  let secrets: ConnectionSecrets;
  let provider: FakeProvider;
  let refresher: TokenRefresher;
  const ids = createIdFactory();

  /** Another daemon's refresher: its own handle on the same database file, and its own way to the provider. */
  const others: Store[] = [];
  function refresherOn(on: Store, to: FakeProvider): TokenRefresher {
    const events = new EventBus();
    const eventLog = new EventLog({ store: on.events, clock: systemClock, events });
    const outbox = new WebhookOutbox({ store: on.webhooks, clock: systemClock, ids, events, retryScheduleS: [0] });
    const announcer = new EventAnnouncer({ log: eventLog, webhooks: outbox, store: on, ids });
    return new TokenRefresher({
      store: on,
      clock: systemClock,
      secrets,
      auth: new ConnectionAuth({ store: on, clock: systemClock, announcer }),
      clients: new Map([['acme', to.client]]),
      logger: pino({ level: 'silent' }),
    });
  }
  function secondDaemon(to: FakeProvider): TokenRefresher {
    const other = openStore(dataPaths(dir.path).database);
    others.push(other);
    return refresherOn(other, to);
  }

  beforeEach(() => {
    dir = tempDir();
    store = openStore(dataPaths(dir.path).database);
    orgId = new OrgsService({ store, clock: systemClock, ids }).create('acme', { dailyCapUsd: null }).id;
    secrets = new ConnectionSecrets(new SecretBox(randomBytes(32)));
    provider = new FakeProvider();
    refresher = refresherOn(store, provider);
  });
  afterEach(() => {
    for (const other of others.splice(0)) other.close();
    store.close();
    dir.remove();
  });

  function oauthConnection(expiresInMs: number): ConnectionRow {
    const id = ids('conn');
    const now = isoTime(Date.now());
    return store.connections.insert({
      id,
      org_id: orgId,
      project_id: null,
      name: `acme-${id.slice(-5)}`,
      type: 'oauth',
      secret_enc: secrets.sealTokens(id, { access_token: 'old-access', refresh_token: 'refresh-1' }),
      env_var_name: 'ACME_TOKEN',
      provider: 'acme',
      auth_status: 'authenticated',
      token_expires_at: Date.now() + expiresInMs,
      created_at: now,
      updated_at: now,
    });
  }

  it('leaves a token that is good for a while alone', async () => {
    const row = oauthConnection(60 * 60_000);
    expect(await refresher.fresh(row)).toBe(row);
    expect(provider.calls).toEqual([]);
  });

  it('sends one refresh for any number of runs asking at once, and gives them all its tokens', async () => {
    const row = oauthConnection(30_000);
    const asked = [refresher.fresh(row), refresher.fresh(row), refresher.fresh(row)];
    expect(provider.calls).toEqual(['refresh-1']);
    provider.answer({ accessToken: 'new-access', refreshToken: 'refresh-2', expiresAt: Date.now() + 3_600_000 });
    const rows = await Promise.all(asked);
    for (const r of rows) expect(secrets.tokensOf(r)).toEqual({ access_token: 'new-access', refresh_token: 'refresh-2' });
    // Fresh now: the next run does not refresh.
    await refresher.fresh(rows[0]!);
    expect(provider.calls).toEqual(['refresh-1']);
  });

  it('sends one refresh between two daemons on one database, and gives the waiting one its tokens', async () => {
    const row = oauthConnection(30_000);
    const viaOther = new FakeProvider();
    const here = refresher.fresh(row);
    const there = secondDaemon(viaOther).fresh(row);
    await until(() => provider.calls.length + viaOther.calls.length > 0);
    expect(provider.calls).toEqual(['refresh-1']);
    provider.answer({ accessToken: 'new-access', refreshToken: 'refresh-2', expiresAt: Date.now() + 3_600_000 });
    for (const r of await Promise.all([here, there])) expect(secrets.tokensOf(r)).toEqual({ access_token: 'new-access', refresh_token: 'refresh-2' });
    expect(viaOther.calls).toEqual([]);
  });

  it('lets the waiting daemon refresh when the holder got no answer from the provider', async () => {
    const row = oauthConnection(30_000);
    const viaOther = new FakeProvider();
    const here = refresher.fresh(row);
    const there = secondDaemon(viaOther).fresh(row);
    provider.answer(new OAuthClientError('unreachable', 'the token endpoint could not be reached: ECONNRESET'));
    expect((await here).auth_status).toBe('authenticated');
    await until(() => viaOther.calls.length > 0);
    viaOther.answer({ accessToken: 'other-access', refreshToken: 'refresh-3', expiresAt: Date.now() + 3_600_000 });
    expect(secrets.tokensOf(await there)).toEqual({ access_token: 'other-access', refresh_token: 'refresh-3' });
  });

  it('takes over the lease of a daemon that died while refreshing, once it has lapsed', async () => {
    const row = oauthConnection(30_000);
    expect(store.connections.claimRefresh(row.id, 'a-daemon-that-died', Date.now() - 120_000, Date.now() - 1)).toBe(true);
    const asked = refresher.fresh(row);
    expect(provider.calls).toEqual(['refresh-1']);
    provider.answer({ accessToken: 'new-access', refreshToken: 'refresh-2', expiresAt: Date.now() + 3_600_000 });
    expect((await asked).auth_detail).toBe('the access token was refreshed');
  });

  it('expires the connection, and logs the connection.expired event, when the provider refuses', async () => {
    const row = oauthConnection(30_000);
    const asked = refresher.fresh(row);
    provider.answer(new OAuthClientError('refused', 'the provider answered invalid_grant'));
    const after = await asked;
    expect(after).toMatchObject({ auth_status: 'expired', auth_detail: 'the provider refused to refresh the token (the provider answered invalid_grant); connect again' });
    expect(store.events.orgAfter(orgId, 0, 10).map((e) => e.type)).toEqual(['connection.expired']);
  });

  it('keeps a token that still works when the provider cannot be reached, and fails one that has expired', async () => {
    const stillGood = oauthConnection(30_000);
    const first = refresher.fresh(stillGood);
    provider.answer(new OAuthClientError('unreachable', 'the token endpoint could not be reached: ECONNREFUSED'));
    expect((await first).auth_status).toBe('authenticated');

    const gone = oauthConnection(-1_000);
    const second = refresher.fresh(gone);
    provider.answer(new OAuthClientError('unreachable', 'the token endpoint could not be reached: ECONNREFUSED'));
    expect(await second).toMatchObject({ auth_status: 'failed', auth_detail: 'the access token expired and the token endpoint could not be reached: ECONNREFUSED' });
  });
});
