/**
 * A backup reveals no operator secret without its master key (issue 21, item 1): a relay password or OAuth client
 * secret that config.json holds in plain text stays out of it, with a warning naming the fix; sealed ones travel
 * sealed, and work again where the backup is restored with its key. The backup file is 0600 from its first byte.
 */
import { copyFileSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/run-cli.js';
import { SmtpSink } from '../fixtures/smtp-sink.js';
import { tempDir } from '../fixtures/temp-dir.js';
import { startDaemon, type TestDaemon } from '../fixtures/test-daemon.js';
import { configureIdentity, mailEnv, send, waitForEmail } from '../mail/harness.js';

const USER = 'mailer';
const RELAY_PASSWORD = 'relay-pa55:w0rd';
const CLIENT_SECRET = 'gh-client-s3cret-value';

let sink: SmtpSink;
let daemon: TestDaemon;
let scratch: { path: string; remove(): void };

/** Every way the secrets could be written into the backup file. */
const secretForms = [RELAY_PASSWORD, encodeURIComponent(RELAY_PASSWORD), CLIENT_SECRET, Buffer.from(CLIENT_SECRET).toString('base64')];
const holdsASecret = (file: string) => {
  const bytes = readFileSync(file).toString('latin1');
  return secretForms.filter((form) => bytes.includes(form));
};

beforeAll(async () => {
  sink = await SmtpSink.start({ users: { [USER]: RELAY_PASSWORD } });
  scratch = tempDir('errand-secret-backups-');
  daemon = await startDaemon({ env: mailEnv({}) });
  // An installation set up before secrets were sealed: both in config.json, in plain text, beside an ordinary key.
  await daemon.stop();
  writeFileSync(
    join(daemon.home, 'config.json'),
    JSON.stringify({
      mail: { smtp_url: `smtp://${USER}:${encodeURIComponent(RELAY_PASSWORD)}@127.0.0.1:${sink.port}`, max_recipients: 7 },
      oauth: { providers: { github: { client_id: 'Iv1.0123', client_secret: CLIENT_SECRET } } },
    }),
  );
  await daemon.restart({ env: { ERRAND_MAIL_SMTP_ALLOW_PLAINTEXT_AUTH: 'true' } });
});

afterAll(async () => {
  await daemon?.cleanup();
  await sink?.close();
  scratch?.remove();
});

describe('errand backup with operator secrets', () => {
  it('leaves plain secrets of config.json out, keeps its other keys, says how to fix it, and writes the file 0600', async () => {
    const file = join(scratch.path, 'plain.backup');
    const taken = await runCli(['--home', daemon.home, 'backup', file]);
    expect(taken.code, taken.stderr).toBe(0);
    expect(taken.stderr).toMatch(
      /^warning: config\.json holds mail\.smtp_url and oauth\.providers in plain text, which the backup left out; (npx errand|\S*errand) config seal puts them under the master key, and later backups carry them sealed$/m,
    );
    expect(holdsASecret(file)).toEqual([]);
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const home = join(scratch.path, 'restored-plain');
    const restored = await runCli(['--home', home, 'restore', file, '--json']);
    expect(restored.code, restored.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(home, 'config.json'), 'utf8'))).toEqual({ mail: { max_recipients: 7 } });
    expect(statSync(join(home, 'errand.db')).mode & 0o777).toBe(0o600);
  });

  it('carries sealed secrets sealed: they work where the backup is restored with its key, and open nowhere without it', async () => {
    const sealed = await runCli(['--home', daemon.home, 'config', 'seal']);
    expect(sealed.code, sealed.stderr).toBe(0);
    const file = join(scratch.path, 'sealed.backup');
    const taken = await runCli(['--home', daemon.home, 'backup', file, '--json']);
    expect(taken.code, taken.stderr).toBe(0);
    expect(taken.json()).toMatchObject({ files: 2, plain_secrets_left_out: [] });
    expect(holdsASecret(file)).toEqual([]);

    // Without the key: the restore says so, and a daemon refuses to start rather than run without its relay.
    const keyless = join(scratch.path, 'restored-keyless');
    expect((await runCli(['--home', keyless, 'restore', file, '--json'])).json()).toMatchObject({ master_key: 'missing', kept_config: false });
    await expect(startDaemon({ home: keyless, env: mailEnv({}) })).rejects.toThrow(/sealed-config\.json: holds secrets sealed under a master key that is not here/);

    // With it, on a data directory that had nothing else: the relay from the sealed URL delivers, logged in.
    await daemon.stop();
    const key = join(scratch.path, 'master.key');
    copyFileSync(join(daemon.home, 'master.key'), key);
    for (const name of ['config.json', 'sealed-config.json', 'errand.db', 'errand.db-wal', 'errand.db-shm', 'master.key']) rmSync(join(daemon.home, name), { force: true });
    copyFileSync(key, join(daemon.home, 'master.key'));
    const restored = await runCli(['--home', daemon.home, 'restore', file, '--json']);
    expect(restored.json()).toMatchObject({ master_key: 'matches', kept_config: false });
    const shown = await runCli(['--home', daemon.home, 'config', 'show', '--json']);
    expect(shown.json().keys.filter((k: { secret: boolean; source: string }) => k.secret && k.source !== 'default')).toEqual([
      { key: 'oauth.providers', value: null, secret: true, source: 'sealed-config.json' },
      { key: 'mail.smtp_url', value: null, secret: true, source: 'sealed-config.json' },
    ]);
    await daemon.restart();
    await configureIdentity(daemon, { username: 'restored' });
    const sent = await send(daemon, { to: 'ann@example.test', subject: 'After the restore', text: 'hi' });
    await waitForEmail(daemon, sent.message_id, (e) => e.recipients[0].status === 'delivered', 'delivery through the sealed relay');
    expect(sink.to('ann@example.test').at(-1)).toMatchObject({ user: USER });
  });
});
