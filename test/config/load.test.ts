import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig, resolveConfig } from '../../src/config/load.js';
import { CONFIG_KEYS, envName, type ConfigKey, type KeySpec } from '../../src/config/schema.js';
import { ConfigError } from '../../src/errors.js';
import { loadMasterKeyring } from '../../src/secrets/master-key.js';
import { SecretBox } from '../../src/secrets/secret-box.js';
import { tempDir } from '../fixtures/temp-dir.js';

let home: { path: string; remove(): void };
beforeEach(() => {
  home = tempDir('errand-config-');
});
afterEach(() => {
  home.remove();
});

function writeFile(content: unknown): void {
  writeFileSync(join(home.path, 'config.json'), typeof content === 'string' ? content : JSON.stringify(content));
}

function configError(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

/** A valid value of each type, as an environment variable would carry it, and what it loads as. */
function sample(spec: KeySpec): [string, unknown] {
  switch (spec.type) {
    case 'string':
      return ['some-value', 'some-value'];
    case 'integer': {
      const n = Math.max(spec.min ?? 1, 3);
      return [String(n), n];
    }
    case 'number': {
      const n = Math.max(spec.min ?? 0, 2.5);
      return [String(n), n];
    }
    case 'boolean':
      return [spec.default === true ? 'false' : 'true', spec.default !== true];
    case 'enum': {
      const v = spec.values!.at(-1)!;
      return [v, v];
    }
    case 'url':
      return ['http://127.0.0.1:9/base/', 'http://127.0.0.1:9/base'];
    case 'number-list':
      return ['1, 2,3', [1, 2, 3]];
    case 'json-object':
      return ['{"a": {"b": 1}}', { a: { b: 1 } }];
  }
}

describe('loadConfig', () => {
  it('answers every default without file, environment or flags', () => {
    const config = loadConfig({ home: home.path, env: {} });
    expect(config['limits.max_concurrent_runs']).toBe(4);
    expect(config['sandbox.driver']).toBe('auto');
    expect(config.public_url).toBeNull();
    expect(config['webhooks.retry_schedule_s']).toEqual([0, 5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400]);
    expect(Object.keys(config).sort()).toEqual(Object.keys(CONFIG_KEYS).sort());
  });

  it('lets a flag beat the environment, which beats the file, which beats the default', () => {
    const key = 'limits.max_concurrent_runs';
    writeFile({ limits: { max_concurrent_runs: 3 } });
    const env = { ERRAND_LIMITS_MAX_CONCURRENT_RUNS: '5' };
    expect(loadConfig({ home: home.path, env: {} })[key]).toBe(3);
    expect(loadConfig({ home: home.path, env })[key]).toBe(5);
    expect(loadConfig({ home: home.path, env, flags: { [key]: '7' } })[key]).toBe(7);
    expect(loadConfig({ home: home.path, env: {}, flags: { [key]: 7 } })[key]).toBe(7);
  });

  it('treats an empty environment variable as unset', () => {
    writeFile({ 'sandbox.driver': 'docker' });
    expect(loadConfig({ home: home.path, env: { ERRAND_SANDBOX_DRIVER: '' } })['sandbox.driver']).toBe('docker');
  });

  it('reads the file in nested and dotted form alike', () => {
    writeFile({ sandbox: { driver: 'docker', 'warm_pool_size': 5 }, 'limits.lease_s': 9, billing: { haiku: { input_usd_per_mtok: 0.5 } } });
    const config = loadConfig({ home: home.path, env: {} });
    expect(config['sandbox.driver']).toBe('docker');
    expect(config['sandbox.warm_pool_size']).toBe(5);
    expect(config['limits.lease_s']).toBe(9);
    expect(config['billing.haiku.input_usd_per_mtok']).toBe(0.5);
  });

  it('maps every key to ERRAND_ plus the key upper-cased with dots as underscores', () => {
    expect(envName('sandbox.driver')).toBe('ERRAND_SANDBOX_DRIVER');
    expect(envName('limits.max_concurrent_runs')).toBe('ERRAND_LIMITS_MAX_CONCURRENT_RUNS');
    expect(envName('public_url')).toBe('ERRAND_PUBLIC_URL');
    for (const [key, spec] of Object.entries(CONFIG_KEYS) as [ConfigKey, KeySpec][]) {
      const [raw, parsed] = sample(spec);
      const config = loadConfig({ home: home.path, env: { [envName(key)]: raw } });
      expect(config[key], key).toEqual(parsed);
    }
  });

  it('takes ANTHROPIC_BASE_URL and OPENAI_BASE_URL, below their ERRAND_ variables', () => {
    const env = { ANTHROPIC_BASE_URL: 'http://127.0.0.1:1', OPENAI_BASE_URL: 'http://127.0.0.1:2/v1' };
    expect(loadConfig({ home: home.path, env })['anthropic.base_url']).toBe('http://127.0.0.1:1');
    expect(loadConfig({ home: home.path, env })['openai.base_url']).toBe('http://127.0.0.1:2/v1');
    expect(loadConfig({ home: home.path, env: { ...env, ERRAND_ANTHROPIC_BASE_URL: 'http://127.0.0.1:3' } })['anthropic.base_url']).toBe('http://127.0.0.1:3');
  });
});

describe('bad values name the key', () => {
  const cases: [string, string, RegExp][] = [
    ['limits.max_concurrent_runs', 'abc', /must be a number/],
    ['limits.max_concurrent_runs', '1.5', /whole number/],
    ['limits.max_concurrent_runs', '0', /at least 1/],
    ['server.port', '70000', /at most 65535/],
    ['sandbox.driver', 'podman', /one of auto, docker, local/],
    ['dev', 'maybe', /true or false/],
    ['public_url', 'not a url', /URL/],
    ['public_url', 'ftp://example.test', /http/],
    ['webhooks.retry_schedule_s', '1,x', /list of non-negative numbers/],
    ['limits.org_daily_cap_usd', '-1', /at least 0/],
  ];

  it.each(cases)('%s = %j', (key, value, message) => {
    const fromEnv = configError(() => loadConfig({ home: home.path, env: { [envName(key)]: value } }));
    expect(fromEnv.key).toBe(key);
    expect(fromEnv.message).toContain(key);
    expect(fromEnv.message).toMatch(message);
    const fromFlag = configError(() => loadConfig({ home: home.path, env: {}, flags: { [key]: value } }));
    expect(fromFlag.key).toBe(key);
  });

  it('in the file, too', () => {
    writeFile({ limits: { requests_per_minute: 'lots' } });
    const err = configError(() => loadConfig({ home: home.path, env: {} }));
    expect(err.key).toBe('limits.requests_per_minute');
  });

  it('an unknown key in the file or as a flag is refused by name', () => {
    writeFile({ sandbox: { drivr: 'docker' } });
    expect(configError(() => loadConfig({ home: home.path, env: {} })).key).toBe('sandbox.drivr');
    writeFile({});
    expect(configError(() => loadConfig({ home: home.path, env: {}, flags: { 'limits.nope': 1 } })).key).toBe('limits.nope');
  });

  it('a config file that is not a JSON object is refused, naming the file', () => {
    writeFile('{ not json');
    expect(configError(() => loadConfig({ home: home.path, env: {} })).message).toContain('config.json');
    writeFile('[1, 2]');
    expect(configError(() => loadConfig({ home: home.path, env: {} })).message).toContain('config.json');
  });
});

describe('a renamed key: mail.dns_servers, now dns.servers', () => {
  const resolve = (env: NodeJS.ProcessEnv = {}, flags?: Record<string, unknown>) => resolveConfig({ home: home.path, env, ...(flags ? { flags } : {}) });
  const READ = 'it is read as dns.servers for now; rename it there';

  it('in config.json, nested or dotted, is read as dns.servers, with a warning naming the new name', () => {
    for (const file of [{ mail: { dns_servers: '127.0.0.1:53' } }, { 'mail.dns_servers': '127.0.0.1:53' }]) {
      writeFile(file);
      const resolved = resolve();
      expect(resolved.config['dns.servers']).toBe('127.0.0.1:53');
      expect(resolved.sources['dns.servers']).toEqual({ layer: 'config.json' });
      expect(resolved.renamedKeys).toEqual([`config.json sets mail.dns_servers, which was renamed dns.servers: ${READ}`]);
    }
  });

  it('in config.json beside dns.servers: the new name wins, and the old one is ignored with a warning', () => {
    writeFile({ mail: { dns_servers: '127.0.0.1:53' }, dns: { servers: '127.0.0.2:53' } });
    const resolved = resolve();
    expect(resolved.config['dns.servers']).toBe('127.0.0.2:53');
    expect(resolved.renamedKeys).toEqual(['config.json sets both mail.dns_servers and dns.servers, its new name: mail.dns_servers is ignored; remove it']);
  });

  it('as ERRAND_MAIL_DNS_SERVERS, is read as ERRAND_DNS_SERVERS, which wins when both are set', () => {
    const old = resolve({ ERRAND_MAIL_DNS_SERVERS: '127.0.0.1:53' });
    expect(old.config['dns.servers']).toBe('127.0.0.1:53');
    expect(old.sources['dns.servers']).toEqual({ layer: 'environment', variable: 'ERRAND_MAIL_DNS_SERVERS' });
    expect(old.renamedKeys).toEqual(['ERRAND_MAIL_DNS_SERVERS was renamed ERRAND_DNS_SERVERS (dns.servers): it is read as ERRAND_DNS_SERVERS for now; rename the variable']);
    const both = resolve({ ERRAND_MAIL_DNS_SERVERS: '127.0.0.1:53', ERRAND_DNS_SERVERS: '127.0.0.2:53' });
    expect(both.config['dns.servers']).toBe('127.0.0.2:53');
    expect(both.sources['dns.servers']).toEqual({ layer: 'environment', variable: 'ERRAND_DNS_SERVERS' });
    expect(both.renamedKeys).toEqual(['both ERRAND_MAIL_DNS_SERVERS and ERRAND_DNS_SERVERS are set: ERRAND_MAIL_DNS_SERVERS is ignored (it was renamed ERRAND_DNS_SERVERS, for dns.servers); unset it']);
    // An empty variable sets nothing, under either name.
    expect(resolve({ ERRAND_MAIL_DNS_SERVERS: '' })).toMatchObject({ renamedKeys: [], sources: { 'dns.servers': { layer: 'default' } } });
  });

  it('keeps the order of the layers: the old variable wins over dns.servers in config.json', () => {
    writeFile({ dns: { servers: '127.0.0.2:53' } });
    const resolved = resolve({ ERRAND_MAIL_DNS_SERVERS: '127.0.0.1:53' });
    expect(resolved.config['dns.servers']).toBe('127.0.0.1:53');
    expect(resolved.renamedKeys).toHaveLength(1);
  });

  it('as errandd --set, is read as dns.servers, which wins when both are given', () => {
    const old = resolve({}, { 'mail.dns_servers': '127.0.0.1:53' });
    expect(old.config['dns.servers']).toBe('127.0.0.1:53');
    expect(old.sources['dns.servers']).toEqual({ layer: 'flag' });
    expect(old.renamedKeys).toEqual([`--set sets mail.dns_servers, which was renamed dns.servers: ${READ}`]);
    const both = resolve({}, { 'mail.dns_servers': '127.0.0.1:53', 'dns.servers': '127.0.0.2:53' });
    expect(both.config['dns.servers']).toBe('127.0.0.2:53');
    expect(both.renamedKeys).toEqual(['--set sets both mail.dns_servers and dns.servers, its new name: mail.dns_servers is ignored; remove it']);
  });

  it('in sealed-config.json, sealed under its old name, opens under it and is read as dns.servers', () => {
    const box = new SecretBox(() => loadMasterKeyring({ home: home.path, env: {} }));
    writeFileSync(join(home.path, 'sealed-config.json'), JSON.stringify({ 'mail.dns_servers': box.seal('127.0.0.1:53', 'config:mail.dns_servers') }));
    const resolved = resolve();
    expect(resolved.config['dns.servers']).toBe('127.0.0.1:53');
    expect(resolved.sources['dns.servers']).toEqual({ layer: 'sealed' });
    expect(resolved.renamedKeys).toEqual([`sealed-config.json sets mail.dns_servers, which was renamed dns.servers: ${READ}`]);
  });

  it('is no configuration key of its own, and an unknown key is still refused', () => {
    expect(Object.keys(CONFIG_KEYS)).not.toContain('mail.dns_servers');
    writeFile({ mail: { dns_server: '127.0.0.1:53' } });
    expect(configError(() => resolve()).message).toContain('mail.dns_server: is not a configuration key');
  });
});
