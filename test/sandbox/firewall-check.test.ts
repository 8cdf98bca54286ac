import { describe, expect, it } from 'vitest';
import { checkSandboxFirewall } from '../../src/sandbox/docker/firewall-check.js';

const INSTALLED = [
  '-A INPUT -i errand0 -j ERRAND-SANDBOX-IN',
  '-A DOCKER-USER -i errand0 -j ERRAND-SANDBOX-FWD',
  '-A ERRAND-SANDBOX-IN -m conntrack --ctstate RELATED,ESTABLISHED -j ACCEPT',
  '-A ERRAND-SANDBOX-IN -j DROP',
  '-A ERRAND-SANDBOX-FWD -d 10.0.0.0/8 -j DROP',
  '-A ERRAND-SANDBOX-FWD -j RETURN',
];

describe('checkSandboxFirewall (as iptables lists the rules; nothing is installed or sent)', () => {
  it('reports the firewall installed when both chains hold rules and both jumps are in place', async () => {
    const report = await checkSandboxFirewall('errand0', async () => INSTALLED);
    expect(report).toEqual({
      installed: true,
      detail: '2 rules in ERRAND-SANDBOX-FWD and 2 in ERRAND-SANDBOX-IN, jumped to for errand0 from DOCKER-USER and INPUT',
    });
  });

  it('names what is missing when a jump or a chain is gone', async () => {
    const withoutForward = INSTALLED.filter((l) => !l.startsWith('-A DOCKER-USER') && !l.startsWith('-A ERRAND-SANDBOX-FWD'));
    const report = await checkSandboxFirewall('errand0', async () => withoutForward);
    expect(report.installed).toBe(false);
    expect(report.detail).toBe('missing the jump from DOCKER-USER to ERRAND-SANDBOX-FWD, the rules of ERRAND-SANDBOX-FWD; restart the daemon to install them');
  });

  it('counts a jump for another bridge as missing', async () => {
    const report = await checkSandboxFirewall('errand1', async () => INSTALLED);
    expect(report.installed).toBe(false);
  });

  it('reports iptables that cannot be listed', async () => {
    const report = await checkSandboxFirewall('errand0', async () => {
      throw new Error('iptables: Permission denied');
    });
    expect(report).toEqual({ installed: false, detail: 'iptables could not be listed: iptables: Permission denied' });
  });
});
