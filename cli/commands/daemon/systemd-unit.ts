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
 * A systemd service unit for errandd: runs as `user` (never root unless asked), restarts it when it fails but not
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
