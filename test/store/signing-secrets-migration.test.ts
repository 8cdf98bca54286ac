import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadMasterKey } from '../../src/secrets/master-key.js';
import { SecretBox } from '../../src/secrets/secret-box.js';
import { migrate } from '../../src/store/migrate.js';
import { openStore } from '../../src/store/store.js';
import { mintSecret, SigningSecrets } from '../../src/webhooks/signing-secrets.js';
import { tempDir } from '../fixtures/temp-dir.js';

const MIGRATIONS = new URL('../../src/store/migrations/', import.meta.url).pathname;
const ONE_TABLE = '033-one-signing-secrets-table.sql';
const HOUR = 60 * 60 * 1000;

describe(`migration ${ONE_TABLE}`, () => {
  let dir: ReturnType<typeof tempDir>;
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(() => {
    dir.remove();
  });

  it("moves every email identity's secrets beside the organisations' own, with rotations in progress carrying on", () => {
    const now = Date.parse('2026-11-22T09:00:00.000Z');
    const box = new SecretBox(loadMasterKey({ home: dir.path, env: {} }));
    const early = join(dir.path, 'early');
    mkdirSync(early);
    for (const f of readdirSync(MIGRATIONS).filter((f) => f < ONE_TABLE)) copyFileSync(join(MIGRATIONS, f), join(early, f));
    const file = join(dir.path, 'errand.db');
    const db = new Database(file);
    const plain = {
      // acme: its own secret rotated 1 h ago (both sign for 23 h more); its identity's rotated 2 h ago.
      acmeOwn: mintSecret(),
      acmeOwnPrevious: mintSecret(),
      acmeIdentity: mintSecret(),
      acmeIdentityPrevious: mintSecret(),
      // globex: one secret each, never rotated; its identity's last rotation window closed an hour ago.
      globexOwn: mintSecret(),
      globexIdentity: mintSecret(),
      globexIdentityExpired: mintSecret(),
    };
    try {
      migrate(db, early);
      const at = '2026-11-01T08:00:00.000Z';
      for (const org of ['org_acme', 'org_globex']) {
        db.prepare('INSERT INTO orgs (id, name, created_at, updated_at) VALUES (@org, @org, @at, @at)').run({ org, at });
        db.prepare("INSERT INTO mailboxes (id, org_id, kind, username, display_name, callback_url, created_at, updated_at) VALUES (@id, @org, 'identity', @org, NULL, NULL, @at, @at)").run({ id: `inb_${org}`, org, at });
      }
      const ownSecret = db.prepare('INSERT INTO webhook_secrets (org_id, secret_enc, created_at, expires_at) VALUES (@org, @enc, @created, @expires)');
      ownSecret.run({ org: 'org_acme', enc: box.seal(plain.acmeOwnPrevious, 'org_acme'), created: now - 48 * HOUR, expires: now + 23 * HOUR });
      ownSecret.run({ org: 'org_acme', enc: box.seal(plain.acmeOwn, 'org_acme'), created: now - HOUR, expires: null });
      ownSecret.run({ org: 'org_globex', enc: box.seal(plain.globexOwn, 'org_globex'), created: now - 5 * HOUR, expires: null });
      const identity = db.prepare(
        `INSERT INTO email_identities (org_id, mailbox_id, webhook_secret_enc, previous_secret_enc, previous_secret_expires_at, domain, domain_verified_at, require_approval, created_at, updated_at)
         VALUES (@org, @mailbox, @current, @previous, @expires, NULL, NULL, 0, @at, @at)`,
      );
      const sealIdentity = (secret: string, org: string) => box.seal(secret, `${org}:email-identity`);
      identity.run({ org: 'org_acme', mailbox: 'inb_org_acme', current: sealIdentity(plain.acmeIdentity, 'org_acme'), previous: sealIdentity(plain.acmeIdentityPrevious, 'org_acme'), expires: now + 22 * HOUR, at });
      identity.run({ org: 'org_globex', mailbox: 'inb_org_globex', current: sealIdentity(plain.globexIdentity, 'org_globex'), previous: sealIdentity(plain.globexIdentityExpired, 'org_globex'), expires: now - HOUR, at });

      migrate(db, MIGRATIONS);
      const columns = (db.prepare("SELECT name FROM pragma_table_info('email_identities')").all() as { name: string }[]).map((c) => c.name);
      expect(columns.filter((c) => c.includes('secret'))).toEqual([]);
    } finally {
      db.close();
    }

    const store = openStore(file);
    try {
      let clock = now;
      const secrets = (signer: 'org' | 'email') => new SigningSecrets({ store, box, clock: { now: () => clock }, signer });
      expect(secrets('org').signingSecrets('org_acme')).toEqual([plain.acmeOwn, plain.acmeOwnPrevious]);
      expect(secrets('email').signingSecrets('org_acme')).toEqual([plain.acmeIdentity, plain.acmeIdentityPrevious]);
      expect(secrets('email').current('org_acme')).toMatchObject({
        secret: plain.acmeIdentity,
        created_at: '2026-11-22T07:00:00.000Z',
        previous_expires_at: new Date(now + 22 * HOUR).toISOString(),
      });
      expect(secrets('org').signingSecrets('org_globex')).toEqual([plain.globexOwn]);
      expect(secrets('email').signingSecrets('org_globex')).toEqual([plain.globexIdentity]);
      expect(secrets('email').current('org_globex')).toMatchObject({ secret: plain.globexIdentity, previous_expires_at: null });

      // The windows close when they would have: acme's identity's previous secret after 22 h, its own after 23 h.
      clock = now + 22 * HOUR;
      expect(secrets('email').signingSecrets('org_acme')).toEqual([plain.acmeIdentity]);
      expect(secrets('org').signingSecrets('org_acme')).toEqual([plain.acmeOwn, plain.acmeOwnPrevious]);
      // A rotation after the migration opens a window for the migrated current secret, as before.
      const rotated = secrets('email').rotate('org_acme');
      expect(secrets('email').signingSecrets('org_acme')).toEqual([rotated.secret, plain.acmeIdentity]);
      expect(secrets('org').signingSecrets('org_acme')).toEqual([plain.acmeOwn, plain.acmeOwnPrevious]);
    } finally {
      store.close();
    }
  });
});
