import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { OAuthServerError } from '../../src/errors.js';
import { createIdFactory } from '../../src/ids.js';
import { KeysService } from '../../src/keys/keys-service.js';
import { clientAddressKey } from '../../src/mcp-server/oauth-server/client-address.js';
import { ClientRegistry } from '../../src/mcp-server/oauth-server/client-registry.js';
import { OrgsService } from '../../src/orgs/orgs-service.js';
import { RetentionService } from '../../src/retention/retention-service.js';
import { openStore, type Store } from '../../src/store/store.js';
import { tempDir } from '../fixtures/temp-dir.js';

const HOUR = 3600 * 1000;
const ADDRESS = '127.0.0.1';

describe('ClientRegistry', () => {
  let dir: ReturnType<typeof tempDir>;
  let store: Store;
  let now: number;
  let registry: ClientRegistry;

  const resources = (settings: Record<string, string> = {}) => ({
    store,
    clock: { now: () => now },
    ids: createIdFactory(() => now),
    config: loadConfig({ home: dir.path, env: {}, flags: settings }),
    logger: pino({ level: 'silent' }),
    home: dir.path,
  });

  beforeEach(() => {
    dir = tempDir();
    store = openStore(`${dir.path}/errand.db`);
    now = Date.parse('2026-11-22T09:00:00.000Z');
    registry = new ClientRegistry(resources());
  });

  afterEach(() => {
    store.close();
    dir.remove();
  });

  const register = (r = registry, address = ADDRESS) => r.register({ redirect_uris: ['http://127.0.0.1:9/cb'], token_endpoint_auth_method: 'none' }, address).client_id;

  function grantFor(clientId: string): void {
    const r = resources();
    const org = new OrgsService(r).create(`registry-test-${clientId.slice(-6)}`, { dailyCapUsd: null });
    const key = new KeysService(r).create({ orgId: org.id });
    store.transaction((uow) =>
      store.mcpOAuth.insertGrant(uow, {
        id: `mcpg_${clientId.slice(5)}`,
        client_id: clientId,
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
  }

  it('deletes a registration nobody signed in with after a day, and keeps one with a grant', async () => {
    const retention = new RetentionService(resources());
    const unused = register();
    const used = register();
    grantFor(used);
    now += 23 * HOUR;
    register();
    await retention.purge();
    expect(registry.get(unused)).toBeDefined();
    now += 2 * HOUR;
    register();
    await retention.purge();
    expect(registry.get(unused)).toBeUndefined();
    expect(registry.get(used)).toMatchObject({ id: used, authMethod: 'none', grantTypes: ['authorization_code'] });
  });

  it('keeps at most mcp.max_unused_clients clients nobody signed in with, dropping the oldest of them first', () => {
    registry = new ClientRegistry(resources({ 'mcp.max_unused_clients': '3' }));
    const used = register();
    grantFor(used);
    const clients = [register(), register(), register()];
    now += 1000;
    const newest = register();
    expect(registry.get(clients[0]!)).toBeUndefined();
    expect([clients[1], clients[2], newest].map((id) => registry.get(id!)?.id)).toEqual([clients[1], clients[2], newest]);
    expect(registry.get(used)?.id).toBe(used);
    expect(store.mcpOAuth.unusedClients()).toBe(3);
  });

  it('refuses more than mcp.registrations_per_hour registrations from one address with 429 and Retry-After, and counts others apart', () => {
    registry = new ClientRegistry(resources({ 'mcp.registrations_per_hour': '2' }));
    register();
    register();
    let refusal: unknown;
    try {
      register();
    } catch (err) {
      refusal = err;
    }
    expect(refusal).toBeInstanceOf(OAuthServerError);
    expect(refusal).toMatchObject({ error: 'temporarily_unavailable', status: 429, description: expect.stringContaining('mcp.registrations_per_hour') });
    expect(Number((refusal as OAuthServerError).headers['Retry-After'])).toBeGreaterThan(1000);
    expect(register(registry, '127.0.0.2')).toMatch(/^mcpc_/);
    // Half an hour gives one registration back.
    now += HOUR / 2 + 1000;
    expect(register()).toMatch(/^mcpc_/);
  });

  it('does not count a refused registration', () => {
    registry = new ClientRegistry(resources({ 'mcp.registrations_per_hour': '1' }));
    expect(() => registry.register({ redirect_uris: ['javascript:alert(1)'] }, ADDRESS)).toThrow(OAuthServerError);
    expect(register()).toMatch(/^mcpc_/);
  });
});

describe('clientAddressKey', () => {
  it.each([
    ['127.0.0.1', '127.0.0.1'],
    ['::ffff:10.1.2.3', '10.1.2.3'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::9', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002:ffff::1', '2001:db8:1:2::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
  ])('counts %s as %s', (ip, key) => {
    expect(clientAddressKey(ip)).toBe(key);
  });
});
