import { describe, expect, it } from 'vitest';
import type { Liveness, ProcessIdentity } from '../../src/runtime/process-identity.js';
import { DAEMON_LABEL, INSTALLATION_LABEL, processFromLabels, processLabels, SANDBOX_LABEL } from '../../src/sandbox/docker/labels.js';
import { orphanReason } from '../../src/sandbox/docker/orphans.js';

const daemon = (pid: number): ProcessIdentity => ({ bootId: 'boot-1', pidNamespace: 'pid:[4026531836]', pid, startTime: '1000' });

/** The judge's view of processes: pid 10 runs, pid 20 is dead, pid 30 cannot be judged (another namespace). */
const liveness = (identity: ProcessIdentity): Liveness =>
  identity.pid === 10 ? 'alive' : identity.pid === 20 ? 'dead' : 'unknown';
const judge = { instanceId: 'this-instance', installationId: 'this-installation', liveness };

const labels = (installation: string, instance: string, process: ProcessIdentity | null): Record<string, string> => ({
  [SANDBOX_LABEL]: '1',
  [INSTALLATION_LABEL]: installation,
  [DAEMON_LABEL]: instance,
  ...processLabels(process),
});

describe('orphanReason', () => {
  it('keeps the containers of this driver instance, whatever their process labels say', () => {
    expect(orphanReason(labels('this-installation', 'this-instance', daemon(20)), judge)).toBeNull();
  });

  it('removes containers an earlier daemon of this data directory left, unless that daemon provably runs', () => {
    expect(orphanReason(labels('this-installation', 'earlier', daemon(20)), judge)).toBe('left by an earlier daemon of this data directory');
    expect(orphanReason(labels('this-installation', 'earlier', daemon(30)), judge)).toBe('left by an earlier daemon of this data directory');
    expect(orphanReason(labels('this-installation', 'earlier', null), judge)).toBe('left by an earlier daemon of this data directory');
    expect(orphanReason(labels('this-installation', 'concurrent', daemon(10)), judge)).toBeNull();
  });

  it('removes another installation’s containers only when their daemon is provably dead', () => {
    expect(orphanReason(labels('other-installation', 'other', daemon(20)), judge)).toBe('its daemon is provably dead');
    expect(orphanReason(labels('other-installation', 'other', daemon(10)), judge)).toBeNull();
    expect(orphanReason(labels('other-installation', 'other', daemon(30)), judge)).toBeNull();
  });

  it('keeps containers that do not name their daemon completely (a pid alone proves nothing)', () => {
    const pidOnly = { [SANDBOX_LABEL]: '1', [INSTALLATION_LABEL]: 'other-installation', [DAEMON_LABEL]: 'other', 'errand.pid': '20' };
    expect(processFromLabels(pidOnly)).toBeNull();
    expect(orphanReason(pidOnly, judge)).toBeNull();
    // Labels of an earlier Errand: a hash of the data directory's path, which another installation may share.
    expect(orphanReason({ [SANDBOX_LABEL]: '1', 'errand.home': 'a1b2c3', 'errand.host': 'here', 'errand.pid': '20' }, judge)).toBeNull();
  });
});
