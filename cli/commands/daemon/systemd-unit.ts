import { existsSync, realpathSync } from 'node:fs';
import { join } from 'node:path';

export interface SystemdUnitOptions {
  /** errandd's command line: the node binary, its script, and its flags. */
  command: string[];
  home: string;
  user: string;
  /** Model API keys and other environment, read at each start; optional (`-`): the unit starts without it. */
  envFile: string;
  /** The operations guide, for `systemctl help`. */
  docs: string;
}

/**
 * A systemd service unit for errandd: runs as `user` (a system user of its own by default, never root unless asked), restarts it when it fails but not
 * when its configuration is wrong (exit 2, which a restart cannot mend), gives it time to drain on stop, and keeps
 * the rest of the system read-only to it. The log goes to `<home>/errandd.log` (rotated; `errand daemon logs`), and
 * what Node itself prints on a crash to the journal.
 */
export function systemdUnit(o: SystemdUnitOptions): string {
  return `# Written by errand daemon install; errand daemon install --print shows it again.
[Unit]
Description=Errand agent task service (errandd)
Documentation=${escapeValue(encodeURI(`file://${o.docs}`))}
After=network-online.target docker.service
Wants=network-online.target

[Service]
Type=simple
# The data directory belongs to this user (errand daemon install says how to make both).
User=${o.user}
WorkingDirectory=${escapeValue(o.home)}
Environment=${quote(`ERRAND_HOME=${o.home}`)}
Environment=${quote(`ERRAND_LOG_FILE=${join(o.home, 'errandd.log')}`)}
# Model keys (ANTHROPIC_API_KEY=...), ERRAND_* settings; a file only root can read. Its values win over the above.
EnvironmentFile=-${escapeValue(o.envFile)}
ExecStart=${o.command.map(quote).join(' ')}
Restart=on-failure
RestartSec=5s
RestartPreventExitStatus=2
# SIGTERM lets runs stop and the last webhooks go out; then whatever is left (sandbox processes) is killed.
KillMode=mixed
TimeoutStopSec=60s
UMask=0077
NoNewPrivileges=yes
PrivateTmp=yes
ProtectSystem=full
LimitNOFILE=65536

[Install]
WantedBy=multi-user.target
`;
}

/** A word of a systemd command line or assignment, double-quoted with its specials escaped. */
function quote(value: string): string {
  return `"${escapeValue(value).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** `%` starts a specifier in unit files; a literal one is `%%`. */
function escapeValue(value: string): string {
  if (/[\n\r]/.test(value)) throw new Error(`a unit file value cannot hold a line break: ${JSON.stringify(value)}`);
  return value.replace(/%/g, '%%');
}

/** What `PrivateTmp=yes` replaces, for the service, with empty directories of its own. */
const HIDDEN_BY_PRIVATE_TMP = ['/tmp', '/var/tmp'];
/** What `ProtectSystem=full` makes read-only to the service. */
const READ_ONLY_BY_PROTECT_SYSTEM = ['/usr', '/boot', '/efi', '/etc'];

/**
 * Why the unit would not work with these paths (issue 21, item 13): the data directory (also the working directory
 * and the log's), the node binary and errandd's script must be visible to the service through the unit's own
 * sandboxing, and the data directory writable. One sentence per problem; none when all is well.
 */
export function unitPathProblems(o: { home: string; node: string; script: string }): string[] {
  const problems: string[] = [];
  const hidden = (path: string) => HIDDEN_BY_PRIVATE_TMP.find((dir) => isUnder(realPath(path), dir));
  const homeHidden = hidden(o.home);
  if (homeHidden !== undefined) {
    problems.push(
      `the data directory ${o.home} is under ${homeHidden}, which the unit's PrivateTmp=yes hides from errandd: it could not enter its working directory ` +
        'and would not start; give a data directory elsewhere (--home /var/lib/errand)',
    );
  }
  const readOnly = READ_ONLY_BY_PROTECT_SYSTEM.find((dir) => isUnder(realPath(o.home), dir));
  if (readOnly !== undefined) {
    problems.push(`the data directory ${o.home} is under ${readOnly}, which the unit's ProtectSystem=full makes read-only: errandd could not write its database; give a data directory elsewhere (--home /var/lib/errand)`);
  }
  for (const [what, path] of [['the node binary', o.node], ["errandd's script", o.script]] as const) {
    const dir = hidden(path);
    if (dir !== undefined) {
      problems.push(`${what} ${path} is under ${dir}, which the unit's PrivateTmp=yes hides from errandd: ExecStart would fail; install Node and errand elsewhere (such as /usr/local or /opt)`);
    }
  }
  return problems;
}

function isUnder(path: string, dir: string): boolean {
  return path === dir || path.startsWith(`${dir}/`);
}

/** The path with its symbolic links resolved as far as it exists (a data directory need not exist yet). */
function realPath(path: string): string {
  if (existsSync(path)) return realpathSync(path);
  const slash = path.lastIndexOf('/');
  return slash <= 0 ? path : `${realPath(path.slice(0, slash) || '/')}/${path.slice(slash + 1)}`.replace(/^\/\//, '/');
}
