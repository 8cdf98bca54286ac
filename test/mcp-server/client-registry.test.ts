import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createIdFactory } from '../../src/ids.js';
import { KeysService } from '../../src/keys/keys-service.js';
import { ClientRegistry } from '../../src/mcp-server/oauth-server/client-registry.js';
import { OrgsService } from '../../src/orgs/orgs-service.js';
import { openStore, type Store } from '../../src/store/store.js';
import { tempDir } from '../fixtures/temp-dir.js';

const HOUR = 3600 * 1000;

describe('ClientRegistry', () => {
  let dir: ReturnType<typeof tempDir>;
  let store: Store;
  let now: number;
  let registry: ClientRegistry;

  beforeEach(() => {
    dir = tempDir();
    store = openStore(`${dir.path}/errand.db`);
    now = Date.parse('2026-11-22T09:00:00.000Z');
    const r = { store, clock: { now: () => now }, ids: createIdFactory(() => now) };
    registry = new ClientRegistry(r);
  });

  afterEach(() => {
    store.close();
    dir.remove();
  });

  const register = () => registry.register({ redirect_uris: ['http://127.0.0.1:9/cb'], token_endpoint_auth_method: 'none' }).client_id;

  it('deletes a registration nobody signed in with after a day, and keeps one with a grant', async () => {
    const unused = register();
    const used = register();
    const r = { store, clock: { now: () => now }, ids: createIdFactory(() => now) };
    const org = new OrgsService(r).create('registry-test', { dailyCapUsd: null });
    const key = new KeysService(r).create({ orgId: org.id });
    store.transaction((uow) =>
      store.mcpOAuth.insertGrant(uow, {
        id: 'mcpg_test',
        client_id: used,
        org_id: org.id,
        key_id: key.id,
        resource: 'http://127.0.0.1:7370/mcp',
        scope: 'mcp',
        created_at: new Date(now).toISOString(),
        last_token_at: null,
        revoked_at: null,
        revoked_why: null,
      }),
    );
    now += 23 * HOUR;
    register();
    expect(registry.get(unused)).toBeDefined();
    now += 2 * HOUR;
    register();
    expect(registry.get(unused)).toBeUndefined();
    expect(registry.get(used)).toMatchObject({ id: used, authMethod: 'none', grantTypes: ['authorization_code'] });
  });
});
