/**
 * TOTP codes typed by reference in a docker sandbox (issue 23, item 1): the page is served inside the run's own
 * container (a sandbox cannot reach the host's ports), its access log read from outside by `docker exec`, and the
 * code it received checked with otplib here, independently of the supervisor's otpauth. The model, the steps and the
 * trace see [totp:<name>] only. The local driver's run of the same kind is in connections-e2e.test.ts.
 */
import { execa } from 'execa';
import { verify as verifyTotp } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUN_LABEL } from '../../src/sandbox/docker/labels.js';
import { createRun, startEngine, until, waitForRun, type EngineHarness } from '../engine/harness.js';
import { dockerAvailability } from '../fixtures/docker.js';
import { zipEntries } from '../fixtures/recording-files.js';
import { toolResults, toolUse, type AnthropicRequest } from '../fixtures/scripted-anthropic.js';

const docker = await dockerAvailability();

const SEED = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
const URI = `otpauth://totp/Bank:alice?secret=${SEED}&issuer=Bank&algorithm=SHA512&digits=8`;
const PAGE_PORT = 8000;
const LOGIN_PAGE = `<!doctype html><title>Bank verification</title>
<body><form action="/welcome.html" method="get"><label>Authenticator code <input id="code" name="code"></label><button>Verify</button></form></body>`;
const WELCOME_PAGE = '<!doctype html><title>Welcome</title><body><h1>Signed in</h1></body>';
const SERVE =
  `mkdir -p /workspace/site && cd /workspace/site && cat > login.html <<'EOF'\n${LOGIN_PAGE}\nEOF\ncat > welcome.html <<'EOF'\n${WELCOME_PAGE}\nEOF\n` +
  `nohup python3 -u -m http.server ${PAGE_PORT} --bind 127.0.0.1 >/dev/null 2>access.log &\n` +
  `for i in $(seq 100); do (echo > /dev/tcp/127.0.0.1/${PAGE_PORT}) 2>/dev/null && echo serving && break; sleep 0.1; done`;

const codeIn = (text: string, code: string): boolean => new RegExp(`(?<![0-9])${code}(?![0-9])`).test(text);

describe.skipIf(!docker.available)('typing a TOTP code in a docker sandbox', () => {
  let h: EngineHarness;
  let run: any;
  let runId = '';
  let key = '';
  let start = 0;
  /** What the page's server logged receiving, read from the container while the run was on. */
  let received: { code: string; valid: boolean } | null = null;

  /** The code the page was sent, from its access log inside the run's container, checked with otplib now. */
  async function receivedCode(): Promise<{ code: string; valid: boolean }> {
    const containers = await docker.docker.listContainers({ filters: { label: [`${RUN_LABEL}=${runId}`] } });
    const named = containers.length > 0 ? containers : (await docker.docker.listContainers()).filter((c) => c.Names.some((n) => n.includes(runId)));
    const id = named[0]?.Id;
    if (id === undefined) throw new Error(`no container for ${runId}`);
    const log = await until('the access log line of the form', async () => {
      const { stdout } = await execa('docker', ['exec', id, 'cat', '/workspace/site/access.log']);
      return /GET \/welcome\.html\?code=(\d+)/.exec(stdout)?.[1];
    });
    const check = await verifyTotp({ secret: SEED, algorithm: 'sha512', digits: 8, period: 30, token: log, epochTolerance: [5, 0] });
    return { code: log, valid: check.valid };
  }

  beforeAll(async () => {
    h = await startEngine({ env: { ERRAND_SANDBOX_DRIVER: 'docker', ERRAND_SANDBOX_IMAGE: docker.image, ERRAND_SANDBOX_WARM_POOL_SIZE: '1' } });
    key = h.daemon.createOrgWithKey('totp-docker').key;
    const made = await h.daemon.api('POST', '/v1/connections', { name: 'bank', type: 'totp', secret: URI }, { key });
    expect(made.status).toBe(201);
    start = h.model.requests.length;
    h.model.script([
      toolUse('run_code', { language: 'bash', code: SERVE }),
      toolUse('browser', { action: 'navigate', url: `http://127.0.0.1:${PAGE_PORT}/login.html` }),
      toolUse('browser', { action: 'type', selector: '#code', text: '{{totp:bank}}', submit: true }),
      async () => {
        received = await receivedCode();
        return toolUse('browser', { action: 'read_text' });
      },
      (request: AnthropicRequest) => toolUse('finish', { result: { page: toolResults(request)[0]!.text }, confidence: 'high', matched_text: 'Signed in' }),
    ]);
    runId = await createRun(h.daemon, { prompt: 'Verify with the authenticator code {{totp:bank}}' }, key);
    run = await waitForRun(h.daemon, runId, undefined, 120_000, key);
  }, 240_000);

  afterAll(async () => {
    await h?.close();
  });

  it('types an 8-digit SHA512 code that otplib finds valid, computed inside the container', () => {
    expect(run.status, JSON.stringify(run)).toBe('succeeded');
    expect(received).toMatchObject({ code: expect.stringMatching(/^\d{8}$/), valid: true });
    expect(run.result.page).toContain('Signed in');
  });

  it('shows the model, the steps and the URLs it reads [totp:bank], never the code or the seed', async () => {
    const requests = JSON.stringify(h.model.requests.slice(start));
    expect(requests).toContain('welcome.html?code=[totp:bank]');
    expect(codeIn(requests, received!.code)).toBe(false);
    const steps = JSON.stringify((await h.daemon.api('GET', `/v1/runs/${runId}/steps`, undefined, { key })).body.data);
    expect(steps).toContain('{{totp:bank}}');
    expect(codeIn(steps, received!.code)).toBe(false);
    for (const form of [SEED, URI]) {
      expect(requests).not.toContain(form);
      expect(steps).not.toContain(form);
      expect(h.daemon.logs()).not.toContain(form);
    }
    expect(codeIn(h.daemon.logs(), received!.code)).toBe(false);
  });

  it('holds neither the code nor the seed in any file of the trace', async () => {
    const files = await zipEntries(Buffer.from(await (await fetch(run.evidence.trace_url)).arrayBuffer()));
    expect(files.size).toBeGreaterThan(0);
    let network = '';
    for (const [name, body] of files) {
      const text = body.toString('latin1');
      expect(codeIn(text, received!.code), `${name} holds the code`).toBe(false);
      expect(text.includes(SEED), `${name} holds the seed`).toBe(false);
      if (name.endsWith('.network')) network += text;
    }
    expect(network).toContain('/welcome.html?code=[totp:bank]');
  });
});
