/**
 * Operator secrets in the configuration (issue 21, item 1): the keys the schema marks `secret` are set sealed under
 * the master key, or by `ERRAND_<KEY>` / `ERRAND_<KEY>_FILE`; never by a flag, never shown in a message.
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/load.js';
import { sealPlainSecrets, setOperatorSecret, unsetOperatorSecret } from '../../src/config/operator-secrets.js';
import { CONFIG_KEYS, SECRET_KEYS, envName, fileEnvName } from '../../src/config/schema.js';
import { ConfigError } from '../../src/errors.js';
import { tempDir } from '../fixtures/temp-dir.js';

const RELAY = 'smtp://mailer:s3cr3t-relay-pw@127.0.0.1:2525';
const PROVIDERS = { github: { client_id: 'Iv1.abc', client_secret: 'gh-client-s3cret' } };

let home: { path: string; remove(): void };
beforeEach(() => {
  home = tempDir('errand-secret-keys-');
});
afterEach(() => {
  home.remove();
});

const resolve = (env: NodeJS.ProcessEnv = {}, flags?: Record<string, unknown>) => resolveConfig({ home: home.path, env, ...(flags ? { flags } : {}) });
const writeConfig = (content: unknown) => writeFileSync(join(home.path, 'config.json'), JSON.stringify(content));

function configError(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('the secret keys', () => {
  it('are marked in the schema: the relay URL, the OAuth providers, the egress proxy and the tracing backend\'s headers', () => {
    expect([...SECRET_KEYS].sort()).toEqual(['mail.smtp_url', 'oauth.providers', 'sandbox.egress_proxy', 'tracing.headers']);
    for (const key of SECRET_KEYS) expect(CONFIG_KEYS[key]).toMatchObject({ secret: true });
  });
});

describe('resolveConfig with secret keys', () => {
  it('refuses a secret key as a flag, naming the key and the ways to set it, without repeating the value', () => {
    const err = configError(() => resolve({}, { 'mail.smtp_url': RELAY }));
    expect(err.key).toBe('mail.smtp_url');
    expect(err.message).toContain('errand config set-secret mail.smtp_url');
    expect(err.message).toContain('ERRAND_MAIL_SMTP_URL_FILE');
    expect(err.message).not.toContain('s3cr3t');
  });

  it('reads ERRAND_<KEY>_FILE without its trailing newline, and names the variable as the source', () => {
    const file = join(home.path, 'relay-url');
    writeFileSync(file, `${RELAY}\n`);
    const resolved = resolve({ [fileEnvName('mail.smtp_url')]: file });
    expect(resolved.config['mail.smtp_url']).toBe(RELAY);
    expect(resolved.sources['mail.smtp_url']).toEqual({ layer: 'environment', variable: 'ERRAND_MAIL_SMTP_URL_FILE' });
  });

  it('refuses ERRAND_<KEY>_FILE beside ERRAND_<KEY>, and a file it cannot read, naming the key', () => {
    const file = join(home.path, 'relay-url');
    writeFileSync(file, RELAY);
    expect(configError(() => resolve({ [fileEnvName('mail.smtp_url')]: file, [envName('mail.smtp_url')]: RELAY })).message).toMatch(/both ERRAND_MAIL_SMTP_URL and ERRAND_MAIL_SMTP_URL_FILE/);
    const missing = configError(() => resolve({ [fileEnvName('oauth.providers')]: join(home.path, 'nope.json') }));
    expect(missing.key).toBe('oauth.providers');
    expect(missing.message).toMatch(/cannot be read \(ENOENT\)/);
  });

  it('reads a _FILE variable only for secret keys', () => {
    const file = join(home.path, 'driver');
    writeFileSync(file, 'docker');
    expect(resolve({ ERRAND_SANDBOX_DRIVER_FILE: file }).config['sandbox.driver']).toBe('auto');
  });

  it('takes a sealed value over config.json and under the environment, and lists the plain ones in config.json', () => {
    setOperatorSecret({ home: home.path, env: {} }, 'oauth.providers', JSON.stringify(PROVIDERS));
    // Plain values written by hand after sealing: the relay URL is used, the providers' copy is not.
    writeConfig({ mail: { smtp_url: 'smtp://old:plain@127.0.0.1:1' }, oauth: { providers: { gitlab: { client_id: 'stale' } } } });
    const resolved = resolve();
    expect(resolved.config['oauth.providers']).toEqual(PROVIDERS);
    expect(resolved.sources['oauth.providers']).toEqual({ layer: 'sealed' });
    expect(resolved.config['mail.smtp_url']).toBe('smtp://old:plain@127.0.0.1:1');
    expect(resolved.sources['mail.smtp_url']).toEqual({ layer: 'config.json' });
    expect(resolved.plainSecrets).toEqual(['oauth.providers', 'mail.smtp_url']);
    expect(resolve({ ERRAND_OAUTH_PROVIDERS: '{"gitlab":{"client_id":"x"}}' }).config['oauth.providers']).toEqual({ gitlab: { client_id: 'x' } });
  });

  it('keeps the sealed file free of the value, and mode 0600', () => {
    setOperatorSecret({ home: home.path, env: {} }, 'mail.smtp_url', RELAY);
    const path = join(home.path, 'sealed-config.json');
    expect(readFileSync(path, 'utf8')).not.toContain('s3cr3t');
    expect(readFileSync(path, 'utf8')).toMatch(/"mail\.smtp_url": "v2\.[0-9a-f]{16}\./);
    expect(statMode(path)).toBe(0o600);
    expect(resolve().config['mail.smtp_url']).toBe(RELAY);
  });

  it('does not open a sealed value moved onto another key', () => {
    setOperatorSecret({ home: home.path, env: {} }, 'mail.smtp_url', RELAY);
    const path = join(home.path, 'sealed-config.json');
    const sealed = JSON.parse(readFileSync(path, 'utf8'))['mail.smtp_url'];
    writeFileSync(path, JSON.stringify({ 'oauth.providers': sealed }));
    expect(configError(() => resolve()).key).toBe('oauth.providers');
  });

  it('stops with the reason, and makes no key, when sealed secrets are there but the master key is not', () => {
    setOperatorSecret({ home: home.path, env: {} }, 'mail.smtp_url', RELAY);
    const restored = tempDir('errand-restored-');
    try {
      writeFileSync(join(restored.path, 'sealed-config.json'), readFileSync(join(home.path, 'sealed-config.json')));
      const err = configError(() => resolveConfig({ home: restored.path, env: {} }));
      expect(err.message).toMatch(/sealed under a master key that is not here: put it in .*master\.key \(0600\) or ERRAND_MASTER_KEY/);
      expect(existsSync(join(restored.path, 'master.key'))).toBe(false);
      // With the key of the installation that sealed them, they open.
      const key = readFileSync(join(home.path, 'master.key')).toString('base64');
      expect(resolveConfig({ home: restored.path, env: { ERRAND_MASTER_KEY: key } }).config['mail.smtp_url']).toBe(RELAY);
    } finally {
      restored.remove();
    }
  });

  it('never repeats a secret value in a message about it', () => {
    const err = configError(() => resolve({ ERRAND_OAUTH_PROVIDERS: '["gh-client-s3cret"]' }));
    expect(err.message).not.toContain('s3cr3t');
    writeConfig({ mail: { smtp_url: 12345 } });
    expect(configError(() => resolve()).message).toBe('config mail.smtp_url: must be a non-empty string, got a value not shown (a secret)');
  });
});

describe('the operator secret commands on a data directory', () => {
  it('set-secret seals the value and removes a plain copy from config.json, nested or dotted, keeping the rest', () => {
    writeConfig({ mail: { smtp_url: 'smtp://old:plain@127.0.0.1:1', relay_domain: 'relay.test' }, 'sandbox.driver': 'local' });
    expect(setOperatorSecret({ home: home.path, env: {} }, 'mail.smtp_url', RELAY)).toEqual({ removed_plain_copy: true });
    expect(JSON.parse(readFileSync(join(home.path, 'config.json'), 'utf8'))).toEqual({ mail: { relay_domain: 'relay.test' }, 'sandbox.driver': 'local' });
    expect(statMode(join(home.path, 'config.json'))).toBe(0o600);
    const resolved = resolve();
    expect(resolved.config['mail.smtp_url']).toBe(RELAY);
    expect(resolved.plainSecrets).toEqual([]);
  });

  it('set-secret refuses a value the daemon would refuse, naming the key', () => {
    expect(configError(() => setOperatorSecret({ home: home.path, env: {} }, 'oauth.providers', 'not json')).key).toBe('oauth.providers');
    expect(existsSync(join(home.path, 'sealed-config.json'))).toBe(false);
  });

  it('seal moves plain secrets under the master key, and keeps a value that was already sealed', () => {
    setOperatorSecret({ home: home.path, env: {} }, 'mail.smtp_url', RELAY);
    writeConfig({ 'mail.smtp_url': 'smtp://stale:copy@127.0.0.1:1', oauth: { providers: PROVIDERS } });
    expect(sealPlainSecrets({ home: home.path, env: {} })).toEqual({ sealed: ['oauth.providers'], dropped: ['mail.smtp_url'] });
    expect(JSON.parse(readFileSync(join(home.path, 'config.json'), 'utf8'))).toEqual({});
    const resolved = resolve();
    expect(resolved.config['mail.smtp_url']).toBe(RELAY);
    expect(resolved.config['oauth.providers']).toEqual(PROVIDERS);
    expect(resolved.sources['oauth.providers']).toEqual({ layer: 'sealed' });
    expect(readFileSync(join(home.path, 'sealed-config.json'), 'utf8')).not.toContain('gh-client-s3cret');
  });

  it('unset-secret removes the sealed value and the plain copy', () => {
    setOperatorSecret({ home: home.path, env: {} }, 'mail.smtp_url', RELAY);
    writeConfig({ oauth: { providers: PROVIDERS } });
    expect(unsetOperatorSecret({ home: home.path, env: {} }, 'mail.smtp_url')).toEqual({ sealed: true, plain_copy: false });
    expect(unsetOperatorSecret({ home: home.path, env: {} }, 'oauth.providers')).toEqual({ sealed: false, plain_copy: true });
    const resolved = resolve();
    expect(resolved.config['mail.smtp_url']).toBeNull();
    expect(resolved.config['oauth.providers']).toBeNull();
  });
});

function statMode(path: string): number {
  return statSync(path).mode & 0o777;
}
