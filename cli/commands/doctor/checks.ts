import { accessSync, constants, existsSync } from 'node:fs';
import { withDataDirectory } from '../../../src/admin-services.js';
import { resolveConfig, sourceName, type ResolvedConfig } from '../../../src/config/load.js';
import { plainSecretsWarning } from '../../../src/config/plain-secrets.js';
import { SECRET_KEYS, type Config } from '../../../src/config/schema.js';
import { loosePaths } from '../../../src/runtime/data-directory-modes.js';
import { readDaemonState } from '../../../src/runtime/daemon-state.js';
import { dataPaths } from '../../../src/runtime/paths.js';
import type { Errand, SandboxHostStatus, Status } from '../../api.js';
import { apiClient } from '../../context.js';
import { resolveApiAddress } from '../../api-address.js';
import { formatError } from '../../output.js';
import { answers } from '../daemon/status.js';
import { firewallWord, hostProblem } from '../sandbox/hosts.js';
import { probeSandbox } from '../sandbox/status.js';
import { cliName } from '../../invocation.js';

export type CheckLevel = 'ok' | 'warn' | 'fail';

export interface CheckResult {
  check: string;
  level: CheckLevel;
  detail: string;
}

export interface DoctorInput {
  home: string;
  env: NodeJS.ProcessEnv;
}

export function checkDataDir({ home }: DoctorInput): CheckResult {
  if (!existsSync(home)) return { check: 'data directory', level: 'warn', detail: `${home} does not exist yet (the daemon creates it on first start)` };
  try {
    accessSync(home, constants.W_OK);
  } catch {
    return { check: 'data directory', level: 'fail', detail: `${home} is not writable` };
  }
  const loose = loosePaths(home);
  if (loose.length > 0) {
    const some = loose.slice(0, 3).map((p) => `${p.path} ${p.mode}`).join(', ');
    return {
      check: 'data directory',
      level: 'warn',
      detail: `other users can read ${loose.length} path${loose.length > 1 ? 's' : ''} of ${home} (${some}${loose.length > 3 ? ', ...' : ''}): the daemon takes their permissions off when it starts, or chmod -R go-rwx ${home}`,
    };
  }
  return { check: 'data directory', level: 'ok', detail: `${home} (only its owner can read it)` };
}

export function checkConfig({ home, env }: DoctorInput): { result: CheckResult; resolved: ResolvedConfig | null } {
  try {
    const resolved = resolveConfig({ home, env });
    if (resolved.renamedKeys.length > 0) {
      return { result: { check: 'configuration', level: 'warn', detail: `${resolved.renamedKeys.join('; ')} (docs/configuration.md, "Renamed keys")` }, resolved };
    }
    return { result: { check: 'configuration', level: 'ok', detail: `${dataPaths(home).config} and ERRAND_* variables are valid` }, resolved };
  } catch (err) {
    return { result: { check: 'configuration', level: 'fail', detail: (err as Error).message }, resolved: null };
  }
}

/** Where each secret key is set, and whether config.json holds one in plain text; never a value. */
export function checkSecrets(resolved: ResolvedConfig): CheckResult {
  const warning = plainSecretsWarning(resolved);
  if (warning !== null) return { check: 'secrets', level: 'warn', detail: warning };
  const set = SECRET_KEYS.filter((key) => resolved.sources[key].layer !== 'default');
  const where = set.map((key) => `${key} from ${sourceName(resolved.sources[key])}`);
  return { check: 'secrets', level: 'ok', detail: set.length === 0 ? 'no secret key is set' : `none in plain text in config.json; ${where.join(', ')}` };
}

export async function checkDaemon({ home }: DoctorInput): Promise<{ result: CheckResult; reachable: boolean }> {
  const state = readDaemonState(dataPaths(home).daemonState);
  if (!state) return { result: { check: 'daemon', level: 'warn', detail: `not running on ${home} (${cliName()} daemon start)` }, reachable: false };
  if (!(await answers(state.url))) return { result: { check: 'daemon', level: 'fail', detail: `pid ${state.pid} does not answer at ${state.url}` }, reachable: false };
  return { result: { check: 'daemon', level: 'ok', detail: `pid ${state.pid} answers at ${state.url}` }, reachable: true };
}

/**
 * Whether the key the CLI would use opens the API; says where the key came from, never what it is. Answers the
 * client when it does, for the checks that ask the daemon.
 */
export async function checkApiKey(input: DoctorInput, daemonReachable: boolean): Promise<{ result: CheckResult; api: Errand | null }> {
  let address;
  try {
    address = resolveApiAddress(input.home, input.env);
  } catch (err) {
    return { result: { check: 'API key', level: 'warn', detail: (err as Error).message }, api: null };
  }
  if (!daemonReachable && address.urlSource === 'daemon') return { result: { check: 'API key', level: 'warn', detail: 'not checked: no daemon answers' }, api: null };
  const api = apiClient(address);
  try {
    await api.projects.list({ limit: 1 });
    return { result: { check: 'API key', level: 'ok', detail: `the key from the ${address.keySource} works against ${address.url}` }, api };
  } catch (err) {
    return { result: { check: 'API key', level: 'fail', detail: `the key from the ${address.keySource}: ${formatError(err).replace(/^error: /, '')}` }, api: null };
  }
}

/** The running daemon's own account of itself (GET /v1/status), or why it could not be had. */
export async function daemonStatusOf(api: Errand): Promise<{ status: Status } | { problem: string }> {
  try {
    return { status: await api.status() };
  } catch (err) {
    return { problem: formatError(err).replace(/^error: /, '') };
  }
}

/** The model provider as the daemon has it: configured, reachable, key accepted. Never shows a key (the daemon has none to show). */
export function checkDaemonModelProvider(status: Status, cliName = 'errand'): CheckResult {
  const p = status.model_provider;
  const check = 'model provider';
  if (!p.configured) {
    return {
      check,
      level: 'fail',
      detail:
        `the daemon has no usable ${p.name} provider: ${p.problem}; every run fails at once with auth_required until it is set and the daemon restarted ` +
        `(test-mode runs need none: '${cliName} keys create --test' mints a key for them)`,
    };
  }
  const where = `${p.name} at ${p.base_url}`;
  if (p.reachable === false) return { check, level: 'fail', detail: `${where}: ${p.detail}` };
  if (p.key_accepted === false) return { check, level: 'fail', detail: `${where}: ${p.detail}` };
  if (p.key_accepted === null) return { check, level: 'warn', detail: `${where} answers, but whether it takes the key could not be told: ${p.detail}` };
  return { check, level: 'ok', detail: `${where}: the daemon's key is accepted (checked by listing models, no tokens spent)` };
}

/**
 * The sandboxes as the daemon runs them: the driver, the warm pool, and for docker whether the firewall is in place
 * and which runtime runs them, on every host of `sandbox.hosts` when the daemon lists them (issue 26).
 */
export function checkDaemonSandbox(status: Status): CheckResult[] {
  const s = status.sandbox;
  if (s.driver === 'local') {
    return [{ check: 'sandbox', level: 'warn', detail: `local driver (${NOT_ISOLATED})` }];
  }
  const pool = s.warm_pool === null ? '' : `, warm pool ${s.warm_pool.ready} of ${s.warm_pool.size} ready`;
  const results: CheckResult[] = [{ check: 'sandbox', level: 'ok', detail: `docker with image ${s.image}, runtime ${s.runtime ?? 'the engine default'}${pool}` }];
  const hosts = s.hosts ?? [];
  if (hosts.length > 0) {
    const anyUp = hosts.some((host) => host.state === 'up');
    return [...results, ...hosts.map((host) => checkSandboxHost(host, anyUp))];
  }
  if (s.firewall !== null) {
    results.push({ check: 'sandbox firewall', level: s.firewall.installed ? 'ok' : 'fail', detail: `iptables: ${s.firewall.detail}` });
  }
  return results;
}

/**
 * One Docker engine of the daemon: fails when it takes no runs for want of its firewall, or when no host is up;
 * warns when it is down while others serve, or runs sandboxes without the firewall because the operator said so.
 */
function checkSandboxHost(host: SandboxHostStatus, anyUp: boolean): CheckResult {
  const check = `sandbox host ${host.name}`;
  const firewall = `firewall ${firewallWord(host.firewall)}${host.firewall.detail === null ? '' : ` (${host.firewall.detail})`}`;
  const detail = `${host.state} at ${host.url}, runtime ${host.runtime}, ${host.load.runs} of ${host.capacity.runs} runs, pool ${host.pool.ready} of ${host.pool.size} ready, ${firewall}`;
  const problem = hostProblem(host);
  if (problem === null) return { check, level: 'ok', detail };
  const unusable = host.state === 'up' && host.firewall.required && host.firewall.installed === false;
  return { check, level: unusable || !anyUp ? 'fail' : 'warn', detail: `${problem}; ${detail}` };
}

/** Email as the daemon does it: off, or how mail leaves and where it comes in (what an MX record must reach). */
export function checkDaemonEmail(status: Status): CheckResult {
  const e = status.email;
  const check = 'email';
  if (e.relay_domain === null) return { check, level: 'ok', detail: 'off (set mail.relay_domain and mail.smtp_url, then restart the daemon, to send and receive mail: README.md, "Email")' };
  const receiving = e.receiving === null ? 'receives no mail (mail.inbound_enabled is off)' : `receives mail for *@${e.relay_domain} on ${e.receiving} (SMTP; MX records name ${e.mx_host})`;
  if (e.problem !== null) return { check, level: 'warn', detail: `${e.problem}; ${receiving}` };
  const sending = e.sending === 'capture' ? 'keeps sent mail in the data directory (mail.transport=capture: nothing leaves)' : `sends through ${e.relay}`;
  return { check, level: e.sending === 'capture' ? 'warn' : 'ok', detail: `${sending}; ${receiving}` };
}

/**
 * Without a daemon: whether one started from this shell (`errand daemon start` passes it its environment) could
 * call a model. Names the setting that is missing; never prints a key.
 */
export async function checkShellModelProvider(input: DoctorInput, config: Config): Promise<CheckResult> {
  const { createProvider } = await import('../../../src/engine/providers/create-provider.js');
  const provider = config['models.provider'];
  const check = 'model provider';
  const reason = createProvider({ config, env: input.env }).unusableReason();
  if (reason !== null) {
    return { check, level: 'warn', detail: `no daemon answers; one started from this shell would have no usable ${provider} provider: ${reason.replace("the daemon's environment", 'this shell')}` };
  }
  const where = provider === 'anthropic' ? (config['anthropic.base_url'] ?? 'the Anthropic API') : config['openai.base_url'];
  return { check, level: 'warn', detail: `no daemon answers; one started from this shell would use ${provider} at ${where}` };
}

/** Whether each organisation's kept count of active runs matches a count of its runs. */
export async function checkActiveRunCounts({ home, env }: DoctorInput): Promise<CheckResult> {
  const check = 'active run counts';
  if (!existsSync(dataPaths(home).database)) return { check, level: 'ok', detail: 'no database yet' };
  const drift = await withDataDirectory(home, env, ({ orgs }) => orgs.activeRunCountDrift());
  if (drift.length === 0) return { check, level: 'ok', detail: 'every organisation\'s count of queued and running runs matches its runs' };
  const list = drift.map((d) => `${d.org_id} keeps ${d.kept}, has ${d.counted}`).join('; ');
  return { check, level: 'warn', detail: `${list} (the daemon recounts at its next start: ${cliName()} daemon stop && ${cliName()} daemon start)` };
}

/** Without a daemon: whether this host could run docker sandboxes. */
export async function checkSandbox(config: Config): Promise<CheckResult> {
  const driver = config['sandbox.driver'];
  const chromium = config['sandbox.chromium_path'];
  const localDetail = existsSync(chromium)
    ? `local driver with Chromium at ${chromium} (${NOT_ISOLATED})`
    : `local driver, but no Chromium at ${chromium} (sandbox.chromium_path)`;
  if (driver === 'local') return { check: 'sandbox', level: 'warn', detail: localDetail };
  const status = await probeSandbox(config['sandbox.image']);
  const problem = !status.engine.reachable
    ? `no Docker engine reachable (${status.engine.error})`
    : !status.image.present
      ? `image ${status.image.name} is not built (${cliName()} sandbox build --offline)`
      : null;
  if (problem === null) return { check: 'sandbox', level: 'ok', detail: `docker: engine ${status.engine.version}, image ${status.image.name} present` };
  if (driver === 'docker') return { check: 'sandbox', level: 'fail', detail: `sandbox.driver is docker but ${problem}` };
  return { check: 'sandbox', level: 'warn', detail: `auto: ${problem}, so runs use the ${localDetail}` };
}

// The local driver runs task code as the daemon's own user: it can read the daemon's environment (model keys) and
// the data directory. Say so wherever it is in use.
const NOT_ISOLATED = "not isolated: task code runs as the daemon's user and can read its environment and data directory";
