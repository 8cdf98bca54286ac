/** What the problems need of the model provider: whether it can serve calls, and its name for the message. */
export interface ProviderReadiness {
  readonly name: string;
  unusableReason(): string | null;
}

/** What the problems need of the run's connections (RunConnections): what is wrong with those the run names. */
export interface ConnectionReadiness {
  namedProblems(orgId: string, projectId: string, names: readonly string[]): string[];
  proxyProblem(orgId: string, projectId: string, name: string | null): string | null;
}

/**
 * A reason a run will fail at once with `auth_required`, before any model call or sandbox: a setting of the daemon
 * or a connection the run named. Told to the caller when the run is admitted (a warning of the 202, issue 21 item
 * 14) and, all of them together, in the failure_detail when it fails.
 */
export interface RunProblem {
  code: 'no_model_provider' | 'connection_unusable';
  /** What is wrong, as the failure_detail says it. */
  detail: string;
  /** The request member it concerns, or null for the daemon's own settings. */
  param: string | null;
}

/** The run as these problems need it: its organisation, project and the connections it (or its job) names. */
export interface RunScope {
  orgId: string;
  projectId: string;
  connections: readonly string[];
  /** The proxy connection it (or its job) names, or null. */
  proxy: string | null;
}

/** The provider's missing setting with the provider named, or null when it can serve calls. */
export function modelProviderProblem(provider: ProviderReadiness): string | null {
  const unusable = provider.unusableReason();
  return unusable === null ? null : `${unusable} (models.provider is ${provider.name})`;
}

/**
 * Every reason the run will fail before it starts, as things stand now; none when it can start. `provider` is null
 * for a test-mode run, which calls no model.
 */
export function runProblems(provider: ProviderReadiness | null, connections: ConnectionReadiness, run: RunScope): RunProblem[] {
  const problems: RunProblem[] = [];
  const missing = provider === null ? null : modelProviderProblem(provider);
  if (missing !== null) {
    problems.push({
      code: 'no_model_provider',
      detail:
        `no model provider is configured on the daemon: ${missing}. ` +
        "This is a setting of the daemon's operator, not a login the task's site needs; `errand doctor` checks it.",
      param: null,
    });
  }
  for (const detail of connections.namedProblems(run.orgId, run.projectId, run.connections)) {
    problems.push({ code: 'connection_unusable', detail: `the run needs ${detail}`, param: 'connections' });
  }
  const proxy = connections.proxyProblem(run.orgId, run.projectId, run.proxy);
  if (proxy !== null) problems.push({ code: 'connection_unusable', detail: `the run needs ${proxy}`, param: 'proxy' });
  return problems;
}

/** The failure_detail of a run that fails on these problems: every one of them, not only the first. */
export function problemsDetail(problems: readonly RunProblem[]): string {
  return problems.map((p, i) => `${i === 0 ? '' : 'Also, '}${p.detail}${p.detail.endsWith('.') ? '' : '.'}`).join(' ');
}
