import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import type { SandboxHostStatus } from '../../../cli/api.js';
import { StatusBar } from '../../../cli/tui/dashboard/status-bar.js';
import { status } from './fake-source.js';

const host = (name: string, pool: { ready: number; size: number }, overrides: Partial<SandboxHostStatus> = {}): SandboxHostStatus => ({
  name,
  url: `tcp://${name}:2376`,
  state: 'up',
  problem: null,
  capacity: { runs: 4, memory_mb: 8192 },
  load: { runs: 0, memory_mb: 0 },
  pool,
  runtime: 'runc',
  labels: [],
  firewall: { required: true, installed: true, detail: null },
  ...overrides,
});

const bar = (hosts: SandboxHostStatus[] | undefined) => {
  const base = status();
  const app = render(<StatusBar connection="connected" status={{ ...base, sandbox: { ...base.sandbox, ...(hosts === undefined ? {} : { hosts }) } }} width={100} />);
  const frame = app.lastFrame() ?? '';
  app.unmount();
  return frame;
};

describe('the status bar’s sandbox pool (issue 26)', () => {
  it('shows each host’s pool when sandboxes run on several, and which host takes no runs', () => {
    expect(bar([host('local', { ready: 1, size: 2 }), host('gpu-2', { ready: 3, size: 4 })])).toContain('sandbox docker pools local 1/2, gpu-2 3/4 · 1 active');
    expect(bar([host('gone', { ready: 0, size: 2 }, { state: 'down' }), host('bare', { ready: 2, size: 2 }, { firewall: { required: true, installed: false, detail: null } })])).toContain(
      'sandbox docker pools gone 0/2 down, bare 2/2 no firewall',
    );
  });

  it('shows the one pool with one host, and without hosts (a daemon that predates them)', () => {
    expect(bar([host('local', { ready: 1, size: 2 })])).toContain('sandbox docker pool 1/2 · 1 active');
    expect(bar(undefined)).toContain('sandbox docker pool 1/2 · 1 active');
  });
});
