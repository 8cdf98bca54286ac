import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, existsSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseFirstStartNotice } from '../../src/runtime/first-start-notice.js';
import { tempDir } from '../fixtures/temp-dir.js';

const ERRANDD = fileURLToPath(new URL('../../bin/errandd', import.meta.url));

let home: { path: string; remove(): void };
beforeEach(() => {
  home = tempDir('errand-start-');
});
afterEach(() => {
  home.remove();
});

/** Runs the compiled daemon until it exits (a good configuration would listen; the test then fails on the timeout). */
async function startErrandd(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [ERRANDD, '--port', '0', '--home', home.path, ...args], {
    env: { ...process.env, ERRAND_HOME: home.path, ANTHROPIC_API_KEY: '', OPENAI_API_KEY: '', ERRAND_SANDBOX_DRIVER: 'local', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(timer);
  return { code, stdout, stderr };
}

describe('errandd refuses to start on bad configuration', () => {
  it('from the environment, naming the key', async () => {
    const r = await startErrandd([], { ERRAND_LIMITS_MAX_CONCURRENT_RUNS: 'abc' });
    expect(r.code).not.toBe(0);
    expect(r.code).not.toBeNull();
    expect(r.stderr).toContain('limits.max_concurrent_runs');
    expect(r.stdout).not.toContain('listening on');
  });

  it('for an unusable sandbox.egress_proxy, naming the key and never the value, which may hold a password', async () => {
    const r = await startErrandd([], { ERRAND_SANDBOX_EGRESS_PROXY: 'ftp://egress:Egress-pw-314@proxy.example:21' });
    expect(r.code).not.toBe(0);
    expect(r.code).not.toBeNull();
    expect(r.stderr).toContain('config sandbox.egress_proxy: must use http, https, socks5, not ftp:');
    expect(r.stderr + r.stdout).not.toContain('Egress-pw-314');
  });

  it('from a flag, naming the key', async () => {
    const r = await startErrandd(['--set', 'sandbox.driver=podman']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('sandbox.driver');
  });

  it('from the config file, naming the key', async () => {
    writeFileSync(join(home.path, 'config.json'), JSON.stringify({ limits: { requests_per_minute: -5 } }));
    const r = await startErrandd([]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('limits.requests_per_minute');
  });

  it('for an unknown key, naming it', async () => {
    const r = await startErrandd(['--set', 'limits.max_concurent_runs=3']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('limits.max_concurent_runs');
  });

  it('for a secret key given as a flag, which ps and shell history would keep, without repeating it', async () => {
    const r = await startErrandd(['--set', 'mail.smtp_url=smtp://mailer:flag-s3cret@127.0.0.1:25']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^errandd: config mail\.smtp_url: is a secret, which a flag would show in ps and shell history: use errand config set-secret mail\.smtp_url, ERRAND_MAIL_SMTP_URL or ERRAND_MAIL_SMTP_URL_FILE\n$/);
    expect(r.stderr).not.toContain('flag-s3cret');
  });

  it('for a relay login without TLS to a relay off loopback (issue 21), naming the key', async () => {
    const r = await startErrandd([], {
      ERRAND_MAIL_RELAY_DOMAIN: 'relay.test',
      ERRAND_MAIL_INBOUND_ENABLED: 'false',
      ERRAND_MAIL_SMTP_URL: 'smtp://mailer:pw@relay.example.test:587',
      ERRAND_MAIL_SMTP_ALLOW_PLAINTEXT_AUTH: 'true',
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('errandd: config mail.smtp_allow_plaintext_auth: is only for a relay on a loopback address');
    expect(r.stderr).not.toContain(':pw@');
  });

  it('for an OAuth provider it cannot use, naming the member, with exit code 2', async () => {
    writeFileSync(join(home.path, 'config.json'), JSON.stringify({ oauth: { providers: { github: { client_secret: 's' } } } }));
    const r = await startErrandd([]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('errandd: config oauth.providers.github.client_id: is required\n');
    expect(r.stderr).not.toContain('"s"');
  });
});

describe('errandd on a port that is in use', () => {
  it('says so in one line, mints no key, and a later start on a free port shows the first key', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as AddressInfo;
    try {
      const busy = await startErrandd(['--port', String(port)]);
      expect(busy.code).toBe(1);
      expect(busy.stderr.trim().split('\n').at(-1)).toBe(`errandd: port ${port} is in use: use --port N or --port 0 (any free port), or set server.port`);
      expect(busy.stderr).not.toMatch(/\n\s+at /);
      expect(busy.stdout).not.toMatch(/ek_/);
      expect(existsSync(join(home.path, 'credentials.json'))).toBe(false);
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }

    const child = spawn(process.execPath, [ERRANDD, '--port', '0', '--home', home.path], {
      env: { ...process.env, ERRAND_HOME: home.path, ANTHROPIC_API_KEY: '', OPENAI_API_KEY: '', ERRAND_SANDBOX_DRIVER: 'local' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
      expect((await lines.next()).value).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+$/);
      // The first start's notice, framed, with the key on a line of its own.
      let notice = '';
      // Up to its closing rule, a line of rule characters alone.
      while (!/\n─+\n$/.test(notice)) notice += `${(await lines.next()).value as string}\n`;
      expect(notice.replace(/\n /g, ' ')).toContain(`it is saved (0600) in ${join(home.path, 'credentials.json')}`);
      const key = parseFirstStartNotice(notice)!.key;
      expect(key).toMatch(/^ek_/);
      expect(JSON.parse(readFileSync(join(home.path, 'credentials.json'), 'utf8')).api_key).toBe(key);
    } finally {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
  });
});

describe("errandd's first start on a terminal", () => {
  it('prints the first-start notice after the log lines of its start, not among them, where both share one screen', async () => {
    const screen = join(home.path, 'screen.log');
    const out = openSync(screen, 'w');
    const child = spawn(process.execPath, [ERRANDD, '--port', '0', '--home', home.path], {
      env: { ...process.env, ERRAND_HOME: home.path, ANTHROPIC_API_KEY: '', OPENAI_API_KEY: '', ERRAND_SANDBOX_DRIVER: 'local' },
      stdio: ['ignore', out, out],
    });
    try {
      for (let i = 0; i < 400 && !readFileSync(screen, 'utf8').includes('WARNING: test-mode'); i++) await new Promise((resolve) => setTimeout(resolve, 50));
      const lines = readFileSync(screen, 'utf8').split('\n');
      const started = lines.findIndex((l) => l.includes('"msg":"daemon started"'));
      const notice = lines.indexOf('── First start ─────────────────────────────────────────────────────────────');
      expect(started).toBeGreaterThanOrEqual(0);
      expect(notice).toBeGreaterThan(started);
      expect(lines[notice - 2]).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+$/);
      // The notice, its end and the warnings come together: no log line among them.
      const end = lines.indexOf('WARNING: test-mode runs need no model: `errand keys create --test` mints a key for them (README.md, "A first run").');
      expect(lines.slice(notice, end + 1).some((l) => l.startsWith('{'))).toBe(false);
    } finally {
      child.kill('SIGKILL');
      await once(child, 'exit');
      closeSync(out);
    }
  });
});

describe('errandd without a model provider', () => {
  it('says so loudly on stdout at its first start, naming the setting', async () => {
    const child = spawn(process.execPath, [ERRANDD, '--port', '0', '--home', home.path], {
      env: { ...process.env, ERRAND_HOME: home.path, ANTHROPIC_API_KEY: '', OPENAI_API_KEY: '', ERRAND_SANDBOX_DRIVER: 'local' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
      const seen: string[] = [];
      while (seen.filter((l) => l.startsWith('WARNING: ')).length < 3) seen.push((await lines.next()).value as string);
      expect(seen.filter((l) => l.startsWith('WARNING: '))).toEqual([
        "WARNING: no model provider is configured: ANTHROPIC_API_KEY is not set in the daemon's environment (models.provider is anthropic).",
        'WARNING: every run will fail at once with auth_required until it is set and errandd restarted (docs/configuration.md).',
        'WARNING: test-mode runs need no model: `errand keys create --test` mints a key for them (README.md, "A first run").',
      ]);
    } finally {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
  });
});

describe('errandd with a secret in config.json in plain text (issue 21)', () => {
  it('keeps starting, and says loudly on stdout which key and the command that seals it, never the value', async () => {
    writeFileSync(join(home.path, 'config.json'), JSON.stringify({ mail: { smtp_url: 'smtp://mailer:plain-s3cret@127.0.0.1:25' } }));
    const child = spawn(process.execPath, [ERRANDD, '--port', '0', '--home', home.path], {
      env: { ...process.env, ERRAND_HOME: home.path, ANTHROPIC_API_KEY: 'sk-test', OPENAI_API_KEY: '', ERRAND_SANDBOX_DRIVER: 'local' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    try {
      const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
      const seen: string[] = [];
      while (!seen.some((l) => l.startsWith('WARNING: '))) seen.push((await lines.next()).value as string);
      expect(seen[0]).toMatch(/^listening on http:/);
      expect(seen.at(-1)).toBe(
        'WARNING: config.json holds mail.smtp_url in plain text; errand config seal moves it under the master key, out of backups and of files others may read (docs/configuration.md).',
      );
      while (!stderr.includes('errand config seal')) await new Promise((r) => setTimeout(r, 20));
      expect(stderr + seen.join('\n')).not.toContain('plain-s3cret');
    } finally {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
  });
});

describe('errandd with a renamed key (mail.dns_servers, now dns.servers)', () => {
  it('keeps starting at the upgrade, and says on stdout and in its log which name to use, for each place that sets it', async () => {
    writeFileSync(join(home.path, 'config.json'), JSON.stringify({ mail: { dns_servers: '127.0.0.1:53' } }));
    const child = spawn(process.execPath, [ERRANDD, '--port', '0', '--home', home.path], {
      env: { ...process.env, ERRAND_HOME: home.path, ANTHROPIC_API_KEY: 'sk-test', OPENAI_API_KEY: '', ERRAND_SANDBOX_DRIVER: 'local', ERRAND_MAIL_DNS_SERVERS: '127.0.0.1:5353' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    try {
      const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
      const seen: string[] = [];
      while (seen.filter((l) => l.startsWith('WARNING: ')).length < 2) seen.push((await lines.next()).value as string);
      expect(seen[0]).toMatch(/^listening on http:/);
      expect(seen.filter((l) => l.startsWith('WARNING: '))).toEqual([
        'WARNING: config.json sets mail.dns_servers, which was renamed dns.servers: it is read as dns.servers for now; rename it there (docs/configuration.md, "Renamed keys").',
        'WARNING: ERRAND_MAIL_DNS_SERVERS was renamed ERRAND_DNS_SERVERS (dns.servers): it is read as ERRAND_DNS_SERVERS for now; rename the variable (docs/configuration.md, "Renamed keys").',
      ]);
      while (!stderr.includes('rename the variable')) await new Promise((r) => setTimeout(r, 20));
      expect(stderr).toContain('ERRAND_MAIL_DNS_SERVERS was renamed ERRAND_DNS_SERVERS');
    } finally {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
  });
});

describe('errandd with email', () => {
  it('says where it receives mail, and warns when sends have no relay, naming the setting and the restart', async () => {
    const child = spawn(process.execPath, [ERRANDD, '--port', '0', '--home', home.path], {
      env: { ...process.env, ERRAND_HOME: home.path, ANTHROPIC_API_KEY: 'k', ERRAND_SANDBOX_DRIVER: 'local', ERRAND_MAIL_RELAY_DOMAIN: 'relay.test', ERRAND_MAIL_INBOUND_PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
      const seen: string[] = [];
      while (!seen.some((l) => l.startsWith('WARNING: '))) seen.push((await lines.next()).value as string);
      expect(seen[0]).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+$/);
      expect(seen[1]).toMatch(/^receiving mail for \*@relay\.test on 127\.0\.0\.1:\d+ \(SMTP\)$/);
      expect(seen.filter((l) => l.startsWith('WARNING: '))).toEqual([
        'WARNING: mail.smtp_url is not set (and mail.transport is not capture): sends are refused with email_not_configured; set it and restart errandd (README.md, "Email").',
      ]);
    } finally {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
  });
});
