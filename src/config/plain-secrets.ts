import { sourceName, type ResolvedConfig } from './load.js';

/**
 * What the daemon (on stdout and in its log) and `errand doctor` say about secrets that `config.json` holds in plain
 * text, naming the command that fixes it; null when it holds none. Names keys, never values.
 */
export function plainSecretsWarning(resolved: Pick<ResolvedConfig, 'plainSecrets' | 'sources'>): string | null {
  const keys = resolved.plainSecrets;
  if (keys.length === 0) return null;
  const unused = keys.filter((key) => resolved.sources[key].layer !== 'config.json').map((key) => `${key} unused: ${sourceName(resolved.sources[key])} sets it too`);
  return (
    `config.json holds ${keys.join(' and ')} in plain text${unused.length > 0 ? ` (${unused.join('; ')})` : ''}; ` +
    `errand config seal moves ${keys.length > 1 ? 'them' : 'it'} under the master key, out of backups and of files others may read (docs/configuration.md)`
  );
}
