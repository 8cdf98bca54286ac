/**
 * A run through a proxy on the docker driver (issue 23, item 4): the proxy (TooTallNate's `proxy`, Basic auth
 * required) listens on the sandbox bridge's gateway, the one host address a container could reach if the firewall let
 * it; the run takes a warm pooled container whose browser was launched without the proxy, so the browser must be
 * launched again through it. The proxy's log shows the run's browser and code requests and nothing else, and while the
 * run lasts the firewall pins its container to the proxy's address and port; the pin goes with the container.
 * Without a proxy, a page on the daemon's host's loopback is out of a docker sandbox's reach, and the run says so; a
 * proxy on that loopback is refused with the same reason, and the CLI warns of it when the connection is made.
 */
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureSandboxNetwork } from '../../src/sandbox/docker/sandbox-network.js';
import { PIN_CHAIN, pinnedRules } from '../../src/sandbox/docker/sandbox-firewall.js';
import { startAuthProxy, type AuthProxy } from '../fixtures/auth-proxy.js';
import { dockerAvailability } from '../fixtures/docker.js';
import { toolResults, toolUse, type AnthropicRequest } from '../fixtures/scripted-anthropic.js';
import { runCli } from '../cli/run-cli.js';
import { closedPort, createRun, servePages, startEngine, until, waitForRun, type EngineHarness } from './harness.js';

const docker = await dockerAvailability();
const PROXY_PASSWORD = 'Dock-prx-pw_7Wm2Qa';

describe.skipIf(!docker.available)('a run through a proxy on the docker driver', () => {
  let h: EngineHarness;
  let proxy: AuthProxy;
  let site: Awaited<ReturnType<typeof servePages>>;

  beforeAll(async () => {
    const network = await ensureSandboxNetwork(docker.docker);
    proxy = await startAuthProxy({ username: 'runner', password: PROXY_PASSWORD, host: network.gateway });
    site = await servePages((req, res) => {
      if (req.url === '/via-proxy') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html><head><title>Proxied</title></head><body><h1>Seen through the proxy</h1></body></html>');
      res.writeHead(200, { 'content-type': 'text/plain' }).end(`code came through ${req.url}`);
    });
    h = await startEngine({ env: { ERRAND_SANDBOX_DRIVER: 'docker', ERRAND_SANDBOX_IMAGE: docker.image, ERRAND_SANDBOX_WARM_POOL_SIZE: '1' } });
    // The run takes this warm container, whose browser is already up without the proxy.
    await until('a warm pooled container', async () => ((await h.daemon.api('GET', '/v1/status')).body.sandbox?.warm_pool?.ready ?? 0) >= 1, 60_000);
  }, 120_000);

  afterAll(async () => {
    await h?.close();
    await site?.close();
    await proxy?.close();
  });

  it('sends the browser and code through it, pins the container to it meanwhile, and lifts the pin afterwards', async () => {
    const made = await h.daemon.api('POST', '/v1/connections', { name: 'corp', type: 'proxy', url: `http://runner:${encodeURIComponent(PROXY_PASSWORD)}@${proxy.host}:${proxy.port}` });
    expect(made.status).toBe(201);
    const direct = await closedPort();
    let pins: string[] = [];
    const code =
      'import os, socket, urllib.request\n' +
      "print('HTTP_PROXY:', os.environ.get('HTTP_PROXY'))\n" +
      `print('body:', urllib.request.urlopen('${site.url}/code-via-proxy', timeout=20).read().decode())\n` +
      // Around the proxy, straight to the host: refused by the pin.
      'try:\n' +
      `    socket.create_connection(('${proxy.host}', ${direct}), timeout=5)\n` +
      "    print('direct: connected')\n" +
      'except Exception as e:\n' +
      "    print('direct:', type(e).__name__)\n";
    h.model.script([
      toolUse('browser', { action: 'navigate', url: `${site.url}/via-proxy` }),
      toolUse('run_code', { language: 'python', code }),
      async (request: AnthropicRequest) => {
        pins = await pinsTo(proxy.host, proxy.port);
        return toolUse('finish', { result: { code: toolResults(request)[0]!.text }, confidence: 'high' });
      },
    ]);
    const runId = await createRun(h.daemon, { prompt: 'Look at the page through the proxy', proxy: 'corp' });
    const run = await waitForRun(h.daemon, runId, undefined, 90_000);
    expect(run.status, JSON.stringify(run)).toBe('succeeded');
    const output: string = run.result.code;
    expect(output).toContain('body: code came through /code-via-proxy');
    expect(output).toMatch(/HTTP_PROXY: http:\/\/127\.0\.0\.1:\d+\n/);
    expect(output).toContain('direct: ConnectionRefusedError');

    const seen = proxy.log;
    expect(seen.every((line) => line.authorized), JSON.stringify(seen)).toBe(true);
    expect(seen.map((line) => line.target).sort()).toEqual([`${site.url}/code-via-proxy`, `${site.url}/favicon.ico`, `${site.url}/via-proxy`]);

    // While it ran: the proxy's address and port accepted, then everything else refused.
    expect(pins).toContainEqual(expect.stringMatching(new RegExp(`-d ${proxy.host}/32 -p tcp -m tcp --dport ${proxy.port} -j ACCEPT$`)));
    expect(pins.at(-2)).toMatch(/-p tcp -j REJECT --reject-with tcp-reset$/);
    expect(pins.at(-1)).toMatch(/-j DROP$/);
    // Lifted with the sandbox's removal, which the run's end does not wait for (issue 24).
    const source = /-s (\S+)\/32/.exec(pins[0]!)![1]!;
    await until('the pin to be lifted', async () => (await pinnedRules(source)).length === 0);
  });

  it('fails the run as site_down naming the proxy when it is down', async () => {
    const port = await closedPort();
    await h.daemon.api('POST', '/v1/connections', { name: 'down', type: 'proxy', url: `http://${proxy.host}:${port}`, secret: `runner:${PROXY_PASSWORD}` });
    h.model.script([toolUse('browser', { action: 'navigate', url: `${site.url}/via-proxy` })]);
    const run = await waitForRun(h.daemon, await createRun(h.daemon, { prompt: 'Look at the page', proxy: 'down' }), undefined, 90_000);
    expect(run).toMatchObject({ status: 'failed', failure_reason: 'site_down' });
    expect(run.failure_detail).toMatch(new RegExp(`^the proxy http://${proxy.host.replaceAll('.', '\\.')}:${port} \\(connection 'down'\\) `));
  });

  it("fails a page on the daemon's host's loopback naming the sandbox's reach, whatever the agent says", async () => {
    let seen = '';
    h.model.script([
      toolUse('browser', { action: 'navigate', url: `${site.url}/via-proxy` }),
      (request: AnthropicRequest) => {
        seen = toolResults(request)[0]!.text;
        return toolUse('finish', { result: null, failure_reason: 'site_down', failure_detail: 'the site is down' });
      },
    ]);
    const run = await waitForRun(h.daemon, await createRun(h.daemon, { prompt: 'Look at the local page' }), undefined, 90_000);
    expect(seen).toMatch(/^PROBLEM: host_unreachable: the sandbox is a Docker container, where 127\.0\.0\.1 \(loopback\) is the container itself, not the daemon's host: .*ERRAND_SANDBOX_DRIVER=local/);
    expect(seen).toContain('ERR_CONNECTION_REFUSED');
    expect(run).toMatchObject({ status: 'failed', failure_reason: 'site_down', failure_detail: 'the site is down' });
    expect(run.warnings).toEqual([expect.stringMatching(/^the sandbox is a Docker container, where 127\.0\.0\.1 \(loopback\) is the container itself.*local sandbox driver/)]);
  });

  it("refuses a proxy on the daemon's host's loopback, naming it, and the CLI warns when such a connection is made", async () => {
    const loopback = await startAuthProxy({ username: 'runner', password: PROXY_PASSWORD, host: '127.0.0.1' });
    try {
      const cli = await runCli(['connections', 'create', '--name', 'on-loopback', '--type', 'proxy', '--url', `http://127.0.0.1:${loopback.port}`], {
        env: { ERRAND_API_URL: h.daemon.url, ERRAND_API_KEY: h.daemon.key, ERRAND_HOME: h.daemon.home },
      });
      expect(cli.code, cli.stderr).toBe(0);
      expect(cli.stderr).toMatch(new RegExp(`^warning: http://127\\.0\\.0\\.1:${loopback.port} is the loopback of the daemon's host, which docker sandboxes cannot reach .*ERRAND_SANDBOX_DRIVER=local`, 'm'));
      h.model.script([toolUse('browser', { action: 'navigate', url: `${site.url}/via-proxy` })]);
      const run = await waitForRun(h.daemon, await createRun(h.daemon, { prompt: 'Look at the page', proxy: 'on-loopback' }), undefined, 90_000);
      expect(run).toMatchObject({ status: 'failed', failure_reason: 'site_down' });
      expect(run.failure_detail).toMatch(new RegExp(`^the sandbox failed: the proxy http://127\\.0\\.0\\.1:${loopback.port} \\(connection 'on-loopback'\\) is on 127\\.0\\.0\\.1, the loopback of the daemon's host, which a docker sandbox cannot reach`));
      expect(loopback.log).toEqual([]);
    } finally {
      await loopback.close();
    }
  });
});

/** The pin rules, in place now, of the container pinned to the proxy at `host`:`port`; none when no container is. */
async function pinsTo(host: string, port: number): Promise<string[]> {
  const listed = (await execa('iptables', ['-w', '-S', PIN_CHAIN])).stdout.split('\n');
  const accept = listed.find((line) => line.includes(`-d ${host}/32 -p tcp -m tcp --dport ${port} -j ACCEPT`));
  const source = accept === undefined ? null : /-s (\S+)\/32/.exec(accept)![1];
  return source === null ? [] : listed.filter((line) => line.startsWith(`-A ${PIN_CHAIN} -s ${source}/32 `));
}
