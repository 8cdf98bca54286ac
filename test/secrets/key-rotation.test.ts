import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isoTime, systemClock } from '../../src/clock.js';
import { resolveConfig } from '../../src/config/load.js';
import { setOperatorSecret } from '../../src/config/operator-secrets.js';
import { createIdFactory } from '../../src/ids.js';
import { OrgsService } from '../../src/orgs/orgs-service.js';
import { dataPaths } from '../../src/runtime/paths.js';
import { rotateMasterKey } from '../../src/secrets/key-rotation.js';
import { loadMasterKeyring, MASTER_KEY_ENV, masterKeyId, PREVIOUS_MASTER_KEYS_ENV } from '../../src/secrets/master-key.js';
import { SecretBox } from '../../src/secrets/secret-box.js';
import { SEALED_COLUMNS } from '../../src/store/sealed-values-store.js';
import { openStore, type Store } from '../../src/store/store.js';
import { SigningSecrets } from '../../src/webhooks/signing-secrets.js';
import { tempDir } from '../fixtures/temp-dir.js';

describe('rotateMasterKey', () => {
  let dir: ReturnType<typeof tempDir>;
  let store: Store;
  let orgId: string;
  const ids = createIdFactory();

  beforeEach(() => {
    dir = tempDir();
    store = openStore(dataPaths(dir.path).database);
    orgId = new OrgsService({ store, clock: systemClock, ids }).create('acme', { dailyCapUsd: null }).id;
  });
  afterEach(() => {
    store.close();
    dir.remove();
  });

  function addConnection(box: SecretBox, secret: string): string {
    const id = ids('conn');
    const now = isoTime(Date.now());
    store.connections.insert({
      id,
      org_id: orgId,
      project_id: null,
      name: `c${id.slice(-6)}`,
      type: 'token',
      secret_enc: box.seal(secret, id),
      env_var_name: null,
      provider: null,
      auth_status: 'authenticated',
      created_at: now,
      updated_at: now,
    });
    return id;
  }

  it('re-encrypts connection secrets and webhook signing secrets (an organisation\'s and its email identity\'s) under a new key, and drops the old key', () => {
    const before = loadMasterKeyring({ home: dir.path, env: {} });
    const oldId = before.current().id;
    const box = new SecretBox(before);
    const signing = new SigningSecrets({ store, box, clock: systemClock, signer: 'org' });
    const webhookSecret = signing.current(orgId).secret;
    const emailSecret = new SigningSecrets({ store, box, clock: systemClock, signer: 'email' }).current(orgId).secret;
    const connId = addConnection(box, 'tok_abcdef123456');

    const report = rotateMasterKey({ home: dir.path, env: {}, store });

    expect(report).toMatchObject({ source: 'file', resealed: { webhook_secrets: 2, connections: 1 }, removed_key_ids: [oldId] });
    expect(report.key_id).not.toBe(oldId);
    const after = loadMasterKeyring({ home: dir.path, env: {} });
    expect(after.all().map((k) => k.id)).toEqual([report.key_id]);
    const newBox = new SecretBox(after);
    expect(new SigningSecrets({ store, box: newBox, clock: systemClock, signer: 'org' }).current(orgId).secret).toBe(webhookSecret);
    expect(new SigningSecrets({ store, box: newBox, clock: systemClock, signer: 'email' }).current(orgId).secret).toBe(emailSecret);
    const row = store.connections.get(orgId, connId)!;
    expect(newBox.keyIdOf(row.secret_enc!)).toBe(report.key_id);
    expect(newBox.open(row.secret_enc!, connId)).toBe('tok_abcdef123456');
    // The old key alone no longer opens anything.
    expect(() => new SecretBox(before.byId(oldId)!).open(row.secret_enc!, connId)).toThrow();
    expect(readdirSync(dir.path).filter((f) => f.includes('retired'))).toEqual([]);
  });

  it("re-encrypts the operator's sealed configuration too, which opens under the new key alone", () => {
    setOperatorSecret({ home: dir.path, env: {} }, 'mail.smtp_url', 'smtp://mailer:rotated-pw@127.0.0.1:2525');
    const oldId = loadMasterKeyring({ home: dir.path, env: {} }).current().id;
    const report = rotateMasterKey({ home: dir.path, env: {}, store });
    expect(report).toMatchObject({ resealed: { 'sealed-config.json': 1 }, removed_key_ids: [oldId] });
    const sealed = JSON.parse(readFileSync(join(dir.path, 'sealed-config.json'), 'utf8'))['mail.smtp_url'];
    expect(new SecretBox(loadMasterKeyring({ home: dir.path, env: {} })).keyIdOf(sealed)).toBe(report.key_id);
    expect(resolveConfig({ home: dir.path, env: {} }).config['mail.smtp_url']).toBe('smtp://mailer:rotated-pw@127.0.0.1:2525');
  });

  it('lets a keyring loaded before the rotation (a running daemon) open and seal with the new key', () => {
    const daemonRing = loadMasterKeyring({ home: dir.path, env: {} });
    const daemonBox = new SecretBox(daemonRing);
    const connId = addConnection(daemonBox, 'tok_before_rotation');
    const report = rotateMasterKey({ home: dir.path, env: {}, store });
    expect(daemonBox.open(store.connections.get(orgId, connId)!.secret_enc!, connId)).toBe('tok_before_rotation');
    expect(daemonBox.keyIdOf(daemonBox.seal('new'))).toBe(report.key_id);
  });

  it('with ERRAND_MASTER_KEY, re-encrypts from the previous keys to the one the operator set, and touches no file', () => {
    const [oldKey, newKey] = [randomBytes(32), randomBytes(32)];
    const connId = addConnection(new SecretBox(oldKey), 'tok_env_rotation');
    const env = { [MASTER_KEY_ENV]: newKey.toString('base64'), [PREVIOUS_MASTER_KEYS_ENV]: oldKey.toString('base64') };
    const report = rotateMasterKey({ home: dir.path, env, store });
    expect(report).toMatchObject({ source: 'env', key_id: masterKeyId(newKey), resealed: { connections: 1 }, removed_key_ids: [] });
    expect(new SecretBox(newKey).open(store.connections.get(orgId, connId)!.secret_enc!, connId)).toBe('tok_env_rotation');
    expect(readdirSync(dir.path).filter((f) => f.startsWith('master.key'))).toEqual([]);
  });

  it('refuses, changing nothing, when a value is under a key the installation does not hold', () => {
    const stranger = new SecretBox(randomBytes(32));
    const connId = addConnection(stranger, 'tok_unknown_key');
    const sealed = store.connections.get(orgId, connId)!.secret_enc!;
    expect(() => rotateMasterKey({ home: dir.path, env: {}, store })).toThrow(/does not hold/);
    expect(store.connections.get(orgId, connId)!.secret_enc).toBe(sealed);
    // The key that was current stays available beside the new one, so nothing that opened before is lost.
    expect(loadMasterKeyring({ home: dir.path, env: {} }).all()).toHaveLength(2);
  });

  it('knows every sealed column of the schema, so that none is left under a retired key', () => {
    const tables = store.db.prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'").all();
    const sealed = tables.flatMap(({ name }) =>
      store.db
        .prepare<[], { name: string }>(`SELECT name FROM pragma_table_info('${name}')`)
        .all()
        .filter((c) => c.name.endsWith('_enc'))
        .map((c) => `${name}.${c.name}`),
    );
    expect(sealed.length).toBeGreaterThan(0);
    expect(sealed.sort()).toEqual(SEALED_COLUMNS.map((c) => `${c.table}.${c.column}`).sort());
  });
});
