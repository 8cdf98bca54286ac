import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/package-root.js';
import type { SupervisorHandover } from '../../src/sandbox/protocol.js';
import { SandboxError } from '../../src/sandbox/sandbox-error.js';
import { newSupervisorTls, supervisorAgent } from '../../src/sandbox/supervisor-channel.js';
import { SupervisorClient, waitForHealthy } from '../../src/sandbox/supervisor-client.js';
import { fetch } from 'undici';
import { tempDir } from '../fixtures/temp-dir.js';
import { closedPort } from '../fixtures/closed-port.js';
import { startSupervisorProcess, stopSupervisorProcess } from '../fixtures/supervisor-process.js';

const SUPERVISOR = join(packageRoot(), 'dist', 'templates', 'sandbox', 'supervisor', 'main.js');
const TOKEN = 'test-token-0123456789abcdef';
const TLS = newSupervisorTls();
const CHROMIUM = '/usr/bin/chromium';

const PAGES: Record<string, { status?: number; html: string }> = {
  '/': {
    html: `<title>Home</title><h1>Welcome to the test shop</h1>
      <p>Opening hours: nine to five.</p>
      <a href="/second">Go to the second page</a>
      <button onclick="document.getElementById('out').textContent = 'The button was pressed'">Press me</button>
      <p id="out">Nothing pressed yet</p>
      <form action="/search"><input id="q" name="q"></form>`,
  },
  '/upload': {
    html: `<title>Upload</title><input type="file" id="doc"><p id="chosen">none</p>
      <script>document.getElementById('doc').onchange = (e) => { const f = e.target.files[0]; document.getElementById('chosen').textContent = 'chose ' + f.name + ' (' + f.size + ' bytes)'; };</script>`,
  },
  '/second': { html: '<title>Second</title><h1>Second page</h1><p>You made it.</p>' },
  '/captcha-widget': {
    html: '<title>Just a moment</title><h1>Checking your browser</h1><div class="g-recaptcha" data-sitekey="k"></div>',
  },
  '/captcha-text': { html: '<title>Attention</title><p>Please verify you are human to continue.</p>' },
  '/down': { status: 503, html: '<title>Unavailable</title><p>Service unavailable</p>' },
};

let workspace: ReturnType<typeof tempDir>;
let supervisor: ChildProcess;
let client: SupervisorClient;
let baseUrl: string;
let pages: Server;
let pagesUrl: string;

beforeAll(async () => {
  if (!existsSync(SUPERVISOR)) throw new Error(`${SUPERVISOR} is missing; run \`npx tsc -p .\` first`);
  workspace = tempDir('errand-supervisor-');
  pages = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://pages');
    if (url.pathname === '/search') {
      const query = url.searchParams.get('q') ?? '';
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<title>Results</title><p>You searched for: ${query}</p>`);
      return;
    }
    const page = PAGES[url.pathname];
    res.writeHead(page?.status ?? (page === undefined ? 404 : 200), { 'content-type': 'text/html' }).end(page?.html ?? 'not found');
  });
  await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
  pagesUrl = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;

  let port: number;
  ({ child: supervisor, port } = await startSupervisor(workspace.path, { token: TOKEN, env: { RUN_VARIABLE: 'for-code' }, tls: null }));
  baseUrl = `http://127.0.0.1:${port}`;
  client = new SupervisorClient({ baseUrl, token: TOKEN, tls: null });
});

/** A supervisor process on `workspace`, given `handover`; answers once it listens. */
function startSupervisor(workspace: string, handover: SupervisorHandover): Promise<{ child: ChildProcess; port: number }> {
  return startSupervisorProcess([SUPERVISOR, '--port', '0', '--workspace', workspace, '--chromium', CHROMIUM], handover);
}

const stopSupervisor = stopSupervisorProcess;

afterAll(async () => {
  await stopSupervisor(supervisor);
  await new Promise((resolve) => pages?.close(resolve));
  workspace?.remove();
});

const exec = (language: 'bash' | 'python' | 'node', code: string, timeoutMs = 20_000) =>
  client.exec({ language, code, timeoutMs });

/** Gone, or a zombie waiting to be reaped: either way it runs no more. */
function isRunning(pid: number): boolean {
  try {
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.startsWith('Z');
  } catch {
    return false;
  }
}

async function waitUntil(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting until ${what}`);
}

function readPids(file: string): number[] {
  return readFileSync(join(workspace.path, file), 'utf8').trim().split(/\s+/).map(Number);
}

describe('POST /exec', () => {
  it('runs bash in the workspace with HOME set to it', async () => {
    const result = await exec('bash', 'pwd; echo "$HOME"; echo oops >&2; exit 3');
    expect(result).toMatchObject({ exitCode: 3, stdout: `${workspace.path}\n${workspace.path}\n`, stderr: 'oops\n', timedOut: false });
  });

  it('runs python in the workspace', async () => {
    const result = await exec('python', "import os\nopen('from-python.txt', 'w').write('py')\nprint(os.getcwd())");
    expect(result.stdout).toBe(`${workspace.path}\n`);
    expect(readFileSync(join(workspace.path, 'from-python.txt'), 'utf8')).toBe('py');
  });

  it('runs node in the workspace', async () => {
    const result = await exec('node', "require('fs').writeFileSync('from-node.txt', 'js'); console.log(process.cwd())");
    expect(result).toMatchObject({ exitCode: 0, stdout: `${workspace.path}\n` });
    expect(readFileSync(join(workspace.path, 'from-node.txt'), 'utf8')).toBe('js');
  });

  it('keeps the token out of its own environment and arguments, and out of the code’s environment', async () => {
    for (const file of ['environ', 'cmdline']) expect(readFileSync(`/proc/${supervisor.pid}/${file}`, 'latin1')).not.toContain(TOKEN);
    const result = await exec('bash', 'echo "${ERRAND_SUPERVISOR_TOKEN:-unset}"; env | grep -c "' + TOKEN + '" || true');
    expect(result.stdout).toBe('unset\n0\n');
  });

  it('gives the code the run’s environment from the handover, which its own environment does not hold', async () => {
    expect((await exec('bash', 'echo "$RUN_VARIABLE"')).stdout).toBe('for-code\n');
    expect(readFileSync(`/proc/${supervisor.pid}/environ`, 'latin1')).not.toContain('RUN_VARIABLE');
  });

  it('kills the code and its grandchildren at the timeout', async () => {
    const result = await exec('bash', 'sleep 300 & echo $$ $! > timeout.pids; sleep 300', 1_000);
    expect(result.timedOut).toBe(true);
    expect(result.exitCode).toBeNull();
    const pids = readPids('timeout.pids');
    expect(pids).toHaveLength(2);
    await waitUntil(() => pids.every((pid) => !isRunning(pid)), 'the shell and its background sleep are gone');
  });

  it('kills the code when the client hangs up', async () => {
    const abort = new AbortController();
    const aborted = client.exec({ language: 'bash', code: 'echo $$ > abort.pids; sleep 300', timeoutMs: 60_000 }, abort.signal);
    await waitUntil(() => existsSync(join(workspace.path, 'abort.pids')), 'the code started');
    abort.abort(new Error('caller gave up'));
    await expect(aborted).rejects.toThrow('caller gave up');
    const [pid] = readPids('abort.pids');
    await waitUntil(() => !isRunning(pid!), 'the aborted code is gone');
  });

  it('cuts long output in the middle with a marker', async () => {
    const result = await exec('python', "print('a' * 30000 + 'b' * 20000)");
    expect(result.stdout).toContain('\n…[30 001 characters omitted]…\n');
    expect(result.stdout.startsWith('a'.repeat(10_000))).toBe(true);
    expect(result.stdout.endsWith('b'.repeat(9_999) + '\n')).toBe(true);
    expect(result.stdout.length).toBeLessThan(20_100);
  });

  it('answers 400 for an unknown language', async () => {
    const error = await client.exec({ language: 'ruby' as 'bash', code: 'puts 1', timeoutMs: 1000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SandboxError);
    expect(error).toMatchObject({ code: 'bad_request', status: 400 });
  });
});

describe('authentication', () => {
  it('answers 401 to a wrong token', async () => {
    const wrong = new SupervisorClient({ baseUrl, token: 'not-the-token-at-all', tls: null });
    const error = await wrong.health().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SandboxError);
    expect(error).toMatchObject({ code: 'unauthorized', status: 401 });
  });

  it('answers 401 without a token', async () => {
    const response = await fetch(`${baseUrl}/exec`, { method: 'POST', body: '{"language":"bash","code":"id","timeoutMs":1000}' });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: { code: 'unauthorized' } });
  });

  it('answers health with the right token', async () => {
    expect(await client.health()).toMatchObject({ ok: true, version: expect.any(String) });
  });

  it('refuses to start without a token line on stdin, even with the token in its environment', async () => {
    const child = spawn(process.execPath, [SUPERVISOR, '--port', '0', '--workspace', workspace.path], {
      env: { PATH: process.env.PATH ?? '', ERRAND_SUPERVISOR_TOKEN: TOKEN },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain('stdin ended before a line with the token and environment');
  });

  it('refuses --run-as naming its own user', async () => {
    const own = `${process.getuid!()}:${process.getgid!()}`;
    const child = spawn(process.execPath, [SUPERVISOR, '--port', '0', '--workspace', workspace.path, '--run-as', own], {
      env: { PATH: process.env.PATH ?? '' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    child.stdin.end(`${JSON.stringify({ token: TOKEN, env: {}, tls: null })}\n`);
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    expect(await new Promise((resolve) => child.once('exit', resolve))).toBe(1);
    expect(stderr).toContain('task code must run as another');
  });
});

describe('over TLS, as for a sandbox on a remote host', () => {
  let tlsWorkspace: ReturnType<typeof tempDir>;
  let child: ChildProcess;
  let tlsUrl: string;
  let tlsClient: SupervisorClient;

  beforeAll(async () => {
    tlsWorkspace = tempDir('errand-supervisor-tls-');
    let port: number;
    ({ child, port } = await startSupervisor(tlsWorkspace.path, { token: TOKEN, env: {}, tls: TLS }));
    tlsUrl = `https://127.0.0.1:${port}`;
    tlsClient = new SupervisorClient({ baseUrl: tlsUrl, token: TOKEN, tls: TLS });
  });

  afterAll(async () => {
    await tlsClient?.close();
    await stopSupervisor(child);
    tlsWorkspace?.remove();
  });

  it('serves the protocol: code runs, a streamed input and a file go through', async () => {
    expect(await tlsClient.health()).toMatchObject({ ok: true });
    expect(await tlsClient.exec({ language: 'bash', code: 'echo over tls', timeoutMs: 10_000 })).toMatchObject({ exitCode: 0, stdout: 'over tls\n' });
    await tlsClient.putInput('notes.txt', Readable.from([Buffer.from('streamed '), Buffer.from('in')]));
    expect((await tlsClient.exec({ language: 'bash', code: 'cat in/notes.txt', timeoutMs: 10_000 })).stdout).toBe('streamed in');
  });

  it('speaks only TLS with its key: a plain HTTP request, or a handshake with another key, gets no answer', async () => {
    await expect(fetch(`${tlsUrl.replace('https:', 'http:')}/health`)).rejects.toThrow();
    const otherKey = new SupervisorClient({ baseUrl: tlsUrl, token: TOKEN, tls: newSupervisorTls() });
    await expect(otherKey.health()).rejects.toMatchObject({ code: 'unreachable' });
    await otherKey.close();
    const withKey = await fetch(`${tlsUrl}/health`, { headers: { authorization: `Bearer ${TOKEN}` }, dispatcher: supervisorAgent(TLS) });
    expect(withKey.status).toBe(200);
  });

  it('answers 401 to a wrong token even over its TLS', async () => {
    const wrong = new SupervisorClient({ baseUrl: tlsUrl, token: 'not-the-token-at-all', tls: TLS });
    await expect(wrong.health()).rejects.toMatchObject({ code: 'unauthorized', status: 401 });
    await wrong.close();
  });
});

describe('waitForHealthy', () => {
  it('resolves once the supervisor answers', async () => {
    expect(await waitForHealthy(client, { timeoutMs: 5_000 })).toMatchObject({ ok: true });
  });

  it('gives up with start_failed when nothing listens', async () => {
    const port = await closedPort();
    const nobody = new SupervisorClient({ baseUrl: `http://127.0.0.1:${port}`, token: TOKEN, tls: null });
    await expect(waitForHealthy(nobody, { timeoutMs: 300 })).rejects.toMatchObject({ code: 'start_failed' });
  });

  it('says to rebuild the image when the supervisor answers without TLS, as one from before TLS does', async () => {
    const plain = createServer((_req, res) => res.end('{"ok":true}'));
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    try {
      const old = new SupervisorClient({ baseUrl: `https://127.0.0.1:${(plain.address() as AddressInfo).port}`, token: TOKEN, tls: null });
      // At the first answer, not after the start timeout: waiting would not make it speak TLS.
      const error = await waitForHealthy(old, { timeoutMs: 600_000 }).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'start_failed', message: 'the sandbox supervisor answers without TLS, so the sandbox image is older than this daemon; rebuild it with `errand sandbox build`' });
    } finally {
      plain.close();
    }
  });
});

describe('/files', () => {
  it('stores and returns a file inside the workspace', async () => {
    await client.putFile('nested/dir/data.bin', Buffer.from([0, 1, 2, 255]));
    expect(readFileSync(join(workspace.path, 'nested/dir/data.bin'))).toEqual(Buffer.from([0, 1, 2, 255]));
    expect(await client.getFile('nested/dir/data.bin')).toEqual(Buffer.from([0, 1, 2, 255]));
  });

  it('refuses paths that leave the workspace', async () => {
    await expect(client.getFile('../outside.txt')).rejects.toMatchObject({ code: 'bad_request' });
    await expect(client.putFile('/etc/owned', Buffer.from('x'))).rejects.toMatchObject({ code: 'bad_request' });
  });

  it('answers 404 for a missing file', async () => {
    await expect(client.getFile('absent.txt')).rejects.toMatchObject({ code: 'not_found', status: 404 });
  });

  it('returns empty and large files whole, and answers 404 for a directory', async () => {
    const large = Buffer.alloc(3 * 1024 * 1024 + 17, 'errand');
    await client.putFile('empty.txt', Buffer.alloc(0));
    await client.putFile('large.bin', large);
    expect(await client.getFile('empty.txt')).toEqual(Buffer.alloc(0));
    expect((await client.getFile('large.bin')).equals(large)).toBe(true);
    await expect(client.getFile('nested')).rejects.toMatchObject({ code: 'not_found', status: 404 });
  });

  it('answers 404 for a named pipe, and refuses to write into one, rather than wait for a writer or reader', async () => {
    expect((await exec('bash', 'mkfifo pipe && echo made')).stdout).toBe('made\n');
    await expect(client.getFile('pipe')).rejects.toMatchObject({ code: 'not_found', status: 404 });
    await expect(client.putFile('pipe', Buffer.from('x'))).rejects.toThrow(/pipe is not a regular file/);
    expect((await exec('bash', 'test -p pipe && echo still-a-pipe')).stdout).toBe('still-a-pipe\n');
  });
});

describe('/outputs', () => {
  const text = async (stream: ReadableStream<Uint8Array>) => Buffer.from(await new Response(stream).arrayBuffer()).toString('utf8');

  it('lists the regular files under out/ at any depth with their sizes, and streams each, but no link, pipe or directory', async () => {
    const made = await exec('bash', 'mkdir -p out/deep/er && printf abc > out/deep/er/x.txt && printf hello > out/top.txt && ln -s /etc/hostname out/link && mkfifo out/fifo && echo made');
    expect(made.stdout).toBe('made\n');
    const listing = await client.listOutputs();
    expect(listing.refused).toEqual([]);
    expect([...listing.files].sort((a, b) => a.name.localeCompare(b.name))).toEqual([
      { name: 'deep/er/x.txt', size: 3 },
      { name: 'top.txt', size: 5 },
    ]);
    expect(await text(await client.readOutput('deep/er/x.txt'))).toBe('abc');
  });

  it('reads nothing outside out/: a path that climbs, or an absolute one, is not found', async () => {
    await exec('bash', 'printf secret > outside.txt');
    await expect(client.readOutput('../outside.txt')).rejects.toMatchObject({ code: 'not_found', status: 404 });
    await expect(client.readOutput(join(workspace.path, 'outside.txt'))).rejects.toMatchObject({ code: 'not_found', status: 404 });
    await expect(client.readOutput('absent.txt')).rejects.toMatchObject({ code: 'not_found', status: 404 });
  });

  it('takes limits of positive integers only', async () => {
    await expect(client.limitOutputs({ maxCount: 0, maxBytes: 10 })).rejects.toMatchObject({ code: 'bad_request' });
    await expect(client.limitOutputs({ maxCount: 5, maxBytes: 1.5 })).rejects.toMatchObject({ code: 'bad_request' });
    await client.limitOutputs({ maxCount: 100, maxBytes: 1024 * 1024 });
  });
});

describe('POST /browser/warm', () => {
  it('takes an empty object and nothing else', async () => {
    const res = await fetch(`${baseUrl}/browser/warm`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'https://example.com/' }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: 'bad_request', message: 'browser/warm takes an empty object' } });
  });

  it('launches the browser before any action, once however often it is asked; the first action uses it', async () => {
    expect(await client.health()).toMatchObject({ browser: false });
    await Promise.all([client.warmBrowser(), client.warmBrowser()]);
    expect(await client.health()).toMatchObject({ browser: true });
    await client.warmBrowser();
    // One browser process (the one Playwright drives through its pipe) among the supervisor's children.
    const browsers = await exec('bash', `pgrep -c -P ${supervisor.pid} -f -- --remote-debugging-pipe || true`);
    expect(browsers.stdout.trim()).toBe('1');
    const navigated = await client.browser({ action: 'navigate', url: `${pagesUrl}/` });
    expect(navigated).toMatchObject({ ok: true, status: 200, title: 'Home' });
  });
});

describe('POST /browser', () => {
  it('navigates and reads the page text', async () => {
    const navigated = await client.browser({ action: 'navigate', url: `${pagesUrl}/` });
    expect(navigated).toMatchObject({ ok: true, status: 200, title: 'Home', url: `${pagesUrl}/`, problem: null });
    const read = await client.browser({ action: 'read_text' });
    expect(read.text).toContain('Opening hours: nine to five.');
  });

  it('clicks by visible text and follows the link', async () => {
    await client.browser({ action: 'navigate', url: `${pagesUrl}/` });
    const clicked = await client.browser({ action: 'click', text: 'Go to the second page' });
    expect(clicked).toMatchObject({ ok: true, url: `${pagesUrl}/second`, title: 'Second', status: 200 });
  });

  it('clicks by selector and sees the page change', async () => {
    await client.browser({ action: 'navigate', url: `${pagesUrl}/` });
    await client.browser({ action: 'click', selector: 'button' });
    expect((await client.browser({ action: 'read_text' })).text).toContain('The button was pressed');
  });

  it('types into a field and submits it', async () => {
    await client.browser({ action: 'navigate', url: `${pagesUrl}/` });
    const typed = await client.browser({ action: 'type', selector: '#q', text: 'blue shoes', submit: true });
    expect(typed).toMatchObject({ ok: true, title: 'Results' });
    expect((await client.browser({ action: 'read_text' })).text).toContain('You searched for: blue shoes');
  });

  it('reports a failed action without failing the request', async () => {
    await client.browser({ action: 'navigate', url: `${pagesUrl}/second` });
    const clicked = await client.browser({ action: 'click', selector: '#does-not-exist' });
    expect(clicked.ok).toBe(false);
    expect(clicked.text).toBe('click #does-not-exist failed: no element on the page matches it now');
  });

  it('takes a PNG screenshot of the viewport', async () => {
    await client.browser({ action: 'navigate', url: `${pagesUrl}/` });
    const shot = await client.browser({ action: 'screenshot' });
    const png = Buffer.from(shot.screenshot ?? '', 'base64');
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(png.length).toBeGreaterThan(2_000);
    // IHDR holds the width and height right after the signature and chunk header.
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1280, 800]);
  });

  it('returns an accessibility snapshot naming the heading', async () => {
    await client.browser({ action: 'navigate', url: `${pagesUrl}/` });
    const snapshot = await client.browser({ action: 'snapshot' });
    expect(snapshot.text).toContain('heading "Welcome to the test shop"');
  });

  it.each(['/captcha-widget', '/captcha-text'])('recognises the captcha page %s', async (path) => {
    const result = await client.browser({ action: 'navigate', url: `${pagesUrl}${path}` });
    expect(result.ok).toBe(false);
    expect(result.problem?.kind).toBe('captcha');
  });

  it('does not call an ordinary page a captcha', async () => {
    expect((await client.browser({ action: 'navigate', url: `${pagesUrl}/second` })).problem).toBeNull();
  });

  it('reports a 5xx main document as http_error', async () => {
    const result = await client.browser({ action: 'navigate', url: `${pagesUrl}/down` });
    expect(result).toMatchObject({ ok: false, status: 503, problem: { kind: 'http_error', status: 503 } });
  });

  it('reports a closed loopback port as connection_refused', async () => {
    const port = await closedPort();
    const result = await client.browser({ action: 'navigate', url: `http://127.0.0.1:${port}/` });
    expect(result).toMatchObject({ ok: false, status: null, problem: { kind: 'connection_refused' } });
  });

  it('reports a name that cannot resolve as dns_failure', async () => {
    // RFC 6761: .invalid never resolves.
    const result = await client.browser({ action: 'navigate', url: 'http://no-such-host.invalid/' });
    expect(result).toMatchObject({ ok: false, url: 'http://no-such-host.invalid/', problem: { kind: 'dns_failure' } });
  });

  it('answers 400 to a navigation that is not http', async () => {
    await expect(client.browser({ action: 'navigate', url: 'file:///etc/passwd' })).rejects.toMatchObject({ code: 'bad_request' });
  });
});

describe('PUT /inputs (issue 23)', () => {
  it('places an input file in the workspace\'s in/, 0444 in a 0555 directory, and refuses it twice', async () => {
    await client.putInput('given.txt', Readable.from([Buffer.from('given bytes')]));
    const path = join(workspace.path, 'in', 'given.txt');
    expect(readFileSync(path, 'utf8')).toBe('given bytes');
    expect(statSync(path).mode & 0o777).toBe(0o444);
    expect(statSync(join(workspace.path, 'in')).mode & 0o777).toBe(0o555);
    await expect(client.putInput('given.txt', Readable.from([Buffer.from('again')]))).rejects.toMatchObject({ status: 409 });
    expect(readFileSync(path, 'utf8')).toBe('given bytes');
  });

  it('refuses names that are not one plain path segment', async () => {
    for (const name of ['../escape.txt', 'a/b.txt', '..', 'nul\u0000.txt', '']) {
      await expect(client.putInput(name, Readable.from([Buffer.from('x')])), JSON.stringify(name)).rejects.toMatchObject({ code: 'bad_request' });
    }
    expect(existsSync(join(workspace.path, 'escape.txt'))).toBe(false);
  });

  it('sets input files on a file input, and only input files', async () => {
    await client.browser({ action: 'navigate', url: `${pagesUrl}/upload` });
    const refused = await client.browser({ action: 'upload', selector: '#doc', files: ['absent.txt'] });
    expect(refused.ok).toBe(false);
    expect(refused.text).toContain('is not one of the run\'s input files');
    const set = await client.browser({ action: 'upload', selector: '#doc', files: ['given.txt'] });
    expect(set).toMatchObject({ ok: true });
    const read = await client.browser({ action: 'read_text' });
    expect(read.text).toContain('chose given.txt (11 bytes)');
    await expect(client.browser({ action: 'upload', selector: '#doc', files: ['../../etc/passwd'] })).rejects.toMatchObject({ code: 'bad_request' });
  });
});
