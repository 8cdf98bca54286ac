import { livenessOf, type Liveness, type ProcessIdentity } from '../../runtime/process-identity.js';
import { DAEMON_LABEL, INSTALLATION_LABEL, processFromLabels } from './labels.js';

export type OrphanReason = 'left by an earlier daemon of this data directory' | 'its daemon is provably dead';

export interface OrphanJudge {
  /** This driver's instance: its containers, live, pooled or still starting, are never orphans. */
  instanceId: string;
  installationId: string;
  liveness?: (identity: ProcessIdentity) => Liveness;
}

/**
 * Why a sandbox container with these labels is an orphan to remove, or null when it must be left alone. One engine
 * can serve several installations (other containers, other users), and a daemon may only remove what it can prove
 * nobody uses: containers of its own data directory started by another daemon (one daemon serves a data directory;
 * kept while that daemon provably still runs), and containers whose daemon is provably dead. A pid alone proves
 * nothing (see `runtime/process-identity.ts`), and containers that do not name their daemon completely are kept.
 */
export function orphanReason(labels: Record<string, string>, judge: OrphanJudge): OrphanReason | null {
  if (labels[DAEMON_LABEL] === judge.instanceId) return null;
  const daemon = processFromLabels(labels);
  const liveness = daemon === null ? 'unknown' : (judge.liveness ?? livenessOf)(daemon);
  if (labels[INSTALLATION_LABEL] === judge.installationId) {
    return liveness === 'alive' ? null : 'left by an earlier daemon of this data directory';
  }
  return liveness === 'dead' ? 'its daemon is provably dead' : null;
}
