/**
 * `errand config`: where each key is set, and the secret keys sealed under the master key (issue 21, item 1). A
 * secret's value goes in on stdin or from a variable, never as an argument, and never comes out again.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../fixtures/temp-dir.js';
import { runCli, type RunCliOptions } from './run-cli.js';

const RELAY = 'smtp://mailer:cli-s3cret-pw@127.0.0.1:2525';
const PROVIDERS = JSON.stringify({ github: { client_id: 'Iv1.abc', client_secret: 'gh-cli-s3cret' } });

let home: { path: string; remove(): void };
beforeEach(() => {
  home = tempDir('errand-config-cli-');
});
afterEach(() => {
  home.remove();
});

const cli = (args: string[], options: RunCliOptions = {}) => runCli(['--home', home.path, ...args], options);
const shown = (r: { stdout: string; stderr: string }) => r.stdout + r.stderr;

describe('errand config set-secret', () => {
  it('seals a value read from stdin, says where, and never prints it', async () => {
    const set = await cli(['config', 'set-secret', 'mail.smtp_url'], { input: `${RELAY}\n` });
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toBe(`sealed mail.smtp_url under the master key in ${join(home.path, 'sealed-config.json')}\n`);
    expect(shown(set)).not.toContain('cli-s3cret-pw');
    expect(readFileSync(join(home.path, 'sealed-config.json'), 'utf8')).not.toContain('cli-s3cret-pw');

    const show = await cli(['config', 'show', 'mail.smtp', '--json']);
    expect(show.code, show.stderr).toBe(0);
    expect(show.json().keys).toEqual([
      { key: 'mail.smtp_url', value: null, secret: true, source: 'sealed-config.json' },
      { key: 'mail.smtp_allow_plaintext_auth', value: false, secret: false, source: 'default' },
      { key: 'mail.smtp_timeout_s', value: 60, secret: false, source: 'default' },
    ]);
    const human = await cli(['config', 'show', 'mail.smtp_url']);
    expect(human.stdout).toMatch(/^mail\.smtp_url\s+\(secret, not shown\)\s+sealed-config\.json$/m);
    expect(shown(show) + shown(human)).not.toContain('cli-s3cret-pw');
  });

  it('reads the value from a named variable, and removes the plain copy config.json held', async () => {
    writeFileSync(join(home.path, 'config.json'), JSON.stringify({ oauth: { providers: { gitlab: { client_id: 'old' } } }, 'sandbox.driver': 'local' }));
    const set = await cli(['config', 'set-secret', 'oauth.providers', '--secret-from-env', 'PROVIDERS_JSON', '--json'], { env: { PROVIDERS_JSON: PROVIDERS } });
    expect(set.code, set.stderr).toBe(0);
    expect(set.json()).toEqual({ object: 'config_secret', key: 'oauth.providers', sealed: true, removed_plain_copy: true });
    expect(JSON.parse(readFileSync(join(home.path, 'config.json'), 'utf8'))).toEqual({ 'sandbox.driver': 'local' });
    expect(shown(set)).not.toContain('gh-cli-s3cret');
  });

  it('refuses a key that is not a secret, and a value the daemon would refuse, with exit 2', async () => {
    const notSecret = await cli(['config', 'set-secret', 'sandbox.driver'], { input: 'docker' });
    expect(notSecret.code).toBe(2);
    expect(notSecret.stderr).toMatch(/sandbox\.driver is not a secret key \(they are sandbox\.egress_proxy, oauth\.providers, mail\.smtp_url, tracing\.headers\); other keys go in config\.json or ERRAND_SANDBOX_DRIVER/);
    const badJson = await cli(['config', 'set-secret', 'oauth.providers'], { input: '{"github": ' });
    expect(badJson.code).toBe(2);
    expect(badJson.stderr).toMatch(/config oauth\.providers: must be a JSON object/);
    const empty = await cli(['config', 'set-secret', 'mail.smtp_url'], { input: '' });
    expect(empty.code).toBe(1);
    expect(empty.stderr).toMatch(/read nothing/);
  });
});

describe('errand config seal and unset-secret', () => {
  it('moves the plain secrets of config.json under the master key, which errand doctor then reports as fixed', async () => {
    writeFileSync(join(home.path, 'config.json'), JSON.stringify({ mail: { smtp_url: RELAY, relay_domain: 'relay.test' } }));
    const before = await cli(['doctor', '--json'], { env: { ERRAND_SANDBOX_DRIVER: 'local' } });
    const secretsBefore = before.json().checks.find((c: { check: string }) => c.check === 'secrets');
    expect(secretsBefore).toEqual({
      check: 'secrets',
      level: 'warn',
      detail: 'config.json holds mail.smtp_url in plain text; errand config seal moves it under the master key, out of backups and of files others may read (docs/configuration.md)',
    });

    const sealed = await cli(['config', 'seal']);
    expect(sealed.code, sealed.stderr).toBe(0);
    expect(sealed.stdout).toBe('sealed mail.smtp_url under the master key and removed it from config.json\n');
    expect(readFileSync(join(home.path, 'config.json'), 'utf8')).not.toContain('cli-s3cret-pw');

    const after = await cli(['doctor', '--json'], { env: { ERRAND_SANDBOX_DRIVER: 'local' } });
    expect(after.json().checks.find((c: { check: string }) => c.check === 'secrets')).toEqual({
      check: 'secrets',
      level: 'ok',
      detail: 'none in plain text in config.json; mail.smtp_url from sealed-config.json',
    });
    expect(shown(before) + shown(sealed) + shown(after)).not.toContain('cli-s3cret-pw');
    const again = await cli(['config', 'seal']);
    expect(again.stderr).toBe('config.json holds no secret in plain text; nothing to do\n');
    writeFileSync(join(home.path, 'config.json'), JSON.stringify({ 'mail.smtp_url': RELAY, oauth: { providers: JSON.parse(PROVIDERS) } }));
    const json = await cli(['config', 'seal', '--json']);
    expect(json.stderr).toBe('');
    expect(json.json()).toEqual({ object: 'config_seal', sealed: ['oauth.providers'], dropped: ['mail.smtp_url'] });
  });

  it('unset-secret removes a sealed value, and warns when there was none', async () => {
    await cli(['config', 'set-secret', 'mail.smtp_url'], { input: RELAY });
    const unset = await cli(['config', 'unset-secret', 'mail.smtp_url']);
    expect(unset.code, unset.stderr).toBe(0);
    expect(unset.stdout).toBe('removed mail.smtp_url\n');
    await cli(['config', 'set-secret', 'mail.smtp_url'], { input: RELAY });
    expect((await cli(['config', 'unset-secret', 'mail.smtp_url', '--json'])).json()).toEqual({ object: 'config_secret', key: 'mail.smtp_url', removed: { sealed: true, plain_copy: false } });
    expect((await cli(['config', 'show', 'mail.smtp_url', '--json'])).json().keys[0].source).toBe('default');
    const twice = await cli(['config', 'unset-secret', 'mail.smtp_url']);
    expect(twice.code).toBe(0);
    expect(twice.stderr).toBe('warning: mail.smtp_url was not set in this data directory\n');
  });
});

describe('a renamed key (mail.dns_servers, now dns.servers) in the commands that read the configuration', () => {
  it('config show reads it as dns.servers and warns; config seal and doctor keep working, doctor with a warning', async () => {
    writeFileSync(join(home.path, 'config.json'), JSON.stringify({ mail: { dns_servers: '127.0.0.1:53', smtp_url: RELAY } }));
    const show = await cli(['config', 'show', 'dns', '--json']);
    expect(show.code, show.stderr).toBe(0);
    expect(show.json().keys).toEqual([{ key: 'dns.servers', value: '127.0.0.1:53', secret: false, source: 'config.json' }]);
    expect(show.stderr).toContain('warning: config.json sets mail.dns_servers, which was renamed dns.servers: it is read as dns.servers for now; rename it there\n');

    const fromEnv = await cli(['config', 'show', 'dns.servers'], { env: { ERRAND_MAIL_DNS_SERVERS: '127.0.0.2:53' } });
    expect(fromEnv.stdout).toMatch(/^dns\.servers\s+127\.0\.0\.2:53\s+ERRAND_MAIL_DNS_SERVERS$/m);
    expect(fromEnv.stderr).toContain('warning: ERRAND_MAIL_DNS_SERVERS was renamed ERRAND_DNS_SERVERS (dns.servers)');

    const sealed = await cli(['config', 'seal']);
    expect(sealed.code, sealed.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(home.path, 'config.json'), 'utf8'))).toEqual({ mail: { dns_servers: '127.0.0.1:53' } });

    const doctor = await cli(['doctor', '--json'], { env: { ERRAND_SANDBOX_DRIVER: 'local' } });
    expect(doctor.json().checks.find((c: { check: string }) => c.check === 'configuration')).toEqual({
      check: 'configuration',
      level: 'warn',
      detail: 'config.json sets mail.dns_servers, which was renamed dns.servers: it is read as dns.servers for now; rename it there (docs/configuration.md, "Renamed keys")',
    });
  });

  it('config set-secret names the new key, and where it goes, since it is not a secret', async () => {
    const set = await cli(['config', 'set-secret', 'mail.dns_servers'], { input: '127.0.0.1:53' });
    expect(set.code).toBe(2);
    expect(set.stderr).toContain('mail.dns_servers was renamed dns.servers: dns.servers is not a secret key');
    expect(set.stderr).toContain('other keys go in config.json or ERRAND_DNS_SERVERS');
  });
});
