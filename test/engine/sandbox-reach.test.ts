import { describe, expect, it } from 'vitest';
import { unreachableBecause, withSandboxReach } from '../../src/engine/tools/sandbox-reach.js';
import type { BrowserResult } from '../../src/sandbox/protocol.js';

const refused = (url: string | null): BrowserResult => ({
  ok: false,
  text: '',
  url,
  title: null,
  status: null,
  problem: { kind: 'connection_refused', message: 'page.goto: net::ERR_CONNECTION_REFUSED at http://127.0.0.1:8080/' },
  screenshot: null,
  extent: null,
  tabs: [],
  dialog: null,
  elements: [],
});

describe('withSandboxReach (a docker sandbox without a proxy)', () => {
  it("turns a refused connection to the host's loopback into host_unreachable, saying why and what to do", () => {
    const result = withSandboxReach(refused(null), 'http://127.0.0.1:8080/');
    expect(result.problem).toEqual({
      kind: 'host_unreachable',
      message:
        "the sandbox is a Docker container, where 127.0.0.1 (loopback) is the container itself, not the daemon's host: to try pages served on this machine, " +
        'run the daemon with the local sandbox driver (sandbox.driver "local", ERRAND_SANDBOX_DRIVER=local), or serve them at an address the internet reaches ' +
        '(the browser said: page.goto: net::ERR_CONNECTION_REFUSED at http://127.0.0.1:8080/)',
    });
  });

  it('names localhost, ::1 and private networks the same way, from the page the browser was on when no target is given', () => {
    expect(unreachableBecause('http://localhost:3000/')).toMatch(/^the sandbox is a Docker container, where localhost is the container itself/);
    expect(unreachableBecause('http://app.localhost/')).toMatch(/where app\.localhost is the container itself/);
    expect(unreachableBecause('http://[::1]:8080/')).toMatch(/where ::1 \(loopback\) is the container itself/);
    expect(unreachableBecause('http://192.168.1.20/')).toMatch(/^the sandbox is a Docker container, and its firewall refuses 192\.168\.1\.20 \(private use, 192\.168\.0\.0\/16\)/);
    expect(withSandboxReach({ ...refused('http://10.1.2.3/form'), problem: { kind: 'connection_failed', message: 'net::ERR_ADDRESS_UNREACHABLE' } }, null).problem?.kind).toBe('host_unreachable');
  });

  it('leaves public sites, names, other problems and working pages as they are', () => {
    for (const url of ['https://example.com/', 'http://93.184.215.14/', 'not a url']) expect(withSandboxReach(refused(null), url)).toEqual(refused(null));
    const dns: BrowserResult = { ...refused(null), problem: { kind: 'dns_failure', message: 'net::ERR_NAME_NOT_RESOLVED' } };
    expect(withSandboxReach(dns, 'http://127.0.0.1/')).toBe(dns);
    const ok: BrowserResult = { ...refused('http://127.0.0.1/'), ok: true, problem: null };
    expect(withSandboxReach(ok, 'http://127.0.0.1/')).toBe(ok);
  });
});
