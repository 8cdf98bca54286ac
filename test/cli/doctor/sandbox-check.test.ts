import { describe, expect, it } from 'vitest';
import { checkDaemonSandbox } from '../../../cli/commands/doctor/checks.js';
import { status } from '../tui/fake-source.js';

describe("errand doctor's sandbox check", () => {
  it('names the image, the runtime and the warm pool of the docker driver, and the firewall', () => {
    const sandbox = { driver: 'docker' as const, isolated: true, image: 'errand-sandbox:latest', runtime: 'runsc', warm_pool: { size: 2, ready: 1 }, firewall: { installed: true, detail: 'in place' }, hosts: [] };
    expect(checkDaemonSandbox(status({ sandbox }))).toEqual([
      { check: 'sandbox', level: 'ok', detail: 'docker with image errand-sandbox:latest, runtime runsc, warm pool 1 of 2 ready' },
      { check: 'sandbox firewall', level: 'ok', detail: 'iptables: in place' },
    ]);
  });

  it('fails a docker driver whose firewall is missing, and warns about the local driver', () => {
    const sandbox = { driver: 'docker' as const, isolated: true, image: 'errand-sandbox:latest', runtime: 'runc', warm_pool: null, firewall: { installed: false, detail: 'no chains' }, hosts: [] };
    expect(checkDaemonSandbox(status({ sandbox }))[1]).toMatchObject({ level: 'fail' });
    expect(checkDaemonSandbox(status({ sandbox: { driver: 'local', isolated: false, image: null, runtime: null, warm_pool: null, firewall: null, hosts: [] } }))[0]).toMatchObject({ level: 'warn', detail: expect.stringMatching(/^local driver/) });
  });
});
