import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { packageRoot } from '../../package-root.js';
import { PRIVATE_DIR_MODE } from '../../runtime/private-files.js';
import { LOCAL_HOST, type Sandbox, type SandboxCreateOptions, type SandboxDriver, type SandboxReport } from '../driver.js';
import { SupervisorClient } from '../supervisor-client.js';
import { SupervisorSandbox } from '../supervisor-sandbox.js';
import { killMarkedProcesses, SANDBOX_MARKER_VARIABLE } from './process-sweep.js';
import { startSupervisor } from './supervisor-process.js';

export interface LocalDriverOptions {
  /** The data directory; sandboxes live in `<home>/sandboxes/`. */
  home: string;
  chromiumPath: string;
  logger: Logger;
  /** The compiled supervisor entrypoint; defaults to the one built into this package's `dist/`. */
  supervisorPath?: string;
  startTimeoutMs?: number;
}

const STOP_GRACE_MS = 5_000;

/**
 * Runs each sandbox as a supervisor child process on loopback, with a directory of its own under
 * `<home>/sandboxes/<runId>-<random>/` (`workspace/` for the code, `tmp/` as its TMPDIR). Isolation is only
 * that of separate directories and processes of the same user: for untrusted work use the docker driver.
 */
export class LocalDriver implements SandboxDriver {
  readonly name = 'local';
  readonly warmCount = 0;
  private readonly live = new Map<string, LocalSandbox>();
  /** Ids of sandboxes being created or live, which `removeOrphans()` must leave alone. */
  private readonly owned = new Set<string>();
  private readonly supervisorPath: string;

  constructor(private readonly options: LocalDriverOptions) {
    this.supervisorPath =
      options.supervisorPath ?? join(packageRoot(), 'dist', 'templates', 'sandbox', 'supervisor', 'main.js');
  }

  async report(): Promise<SandboxReport> {
    return { driver: 'local', isolated: false, image: null, runtime: null, warmPool: null, firewall: null, hosts: [] };
  }

  warmCountsByHost(): ReadonlyMap<string, number> {
    return new Map([[LOCAL_HOST, 0]]);
  }

  /** The local driver has no hosts, so no labels. */
  hasLabel(): boolean {
    return false;
  }

  private get sandboxesDir(): string {
    return join(this.options.home, 'sandboxes');
  }

  async create(options: SandboxCreateOptions): Promise<Sandbox> {
    options.signal.throwIfAborted();
    const id = `${options.runId.replace(/[^A-Za-z0-9_-]/g, '_')}-${randomBytes(6).toString('hex')}`;
    this.owned.add(id);
    const dir = join(this.sandboxesDir, id);
    const workspace = join(dir, 'workspace');
    const tmp = join(dir, 'tmp');
    const token = randomBytes(32).toString('base64url');
    const logger = this.options.logger.child({ sandbox: id });
    // A minimal base environment: the daemon's own (API keys, ERRAND_* settings) must not reach sandboxed code. The
    // run's own comes with the token on stdin, and the supervisor adds it for code.
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
      LANG: 'C.UTF-8',
      TMPDIR: tmp,
      [SANDBOX_MARKER_VARIABLE]: id,
    };
    try {
      await mkdir(workspace, { recursive: true, mode: PRIVATE_DIR_MODE });
      await mkdir(tmp, { recursive: true, mode: PRIVATE_DIR_MODE });
      const { child, port } = await startSupervisor({
        supervisorPath: this.supervisorPath,
        workspace,
        chromiumPath: this.options.chromiumPath,
        env,
        handover: { token, env: options.env, tls: null },
        logger,
        timeoutMs: this.options.startTimeoutMs ?? 15_000,
        signal: options.signal,
      });
      const client = new SupervisorClient({ baseUrl: `http://127.0.0.1:${port}`, token, tls: null });
      const sandbox = new LocalSandbox(id, dir, child, client, logger, () => {
        this.live.delete(id);
        this.owned.delete(id);
      });
      this.live.set(id, sandbox);
      logger.debug({ port }, 'local sandbox started');
      return sandbox;
    } catch (error) {
      await removeSandboxDir(id, dir);
      this.owned.delete(id);
      throw error;
    }
  }

  async removeOrphans(): Promise<number> {
    const entries = await readdir(this.sandboxesDir).catch(() => [] as string[]);
    const orphans = entries.filter((entry) => !this.owned.has(entry));
    for (const id of orphans) await removeSandboxDir(id, join(this.sandboxesDir, id));
    if (orphans.length > 0) this.options.logger.info({ count: orphans.length }, 'removed orphaned local sandboxes');
    return orphans.length;
  }

  async close(): Promise<void> {
    await Promise.all([...this.live.values()].map((sandbox) => sandbox.destroy()));
  }
}

class LocalSandbox extends SupervisorSandbox {
  /** Its processes run on the daemon's host, on its network. */
  readonly reachesHost = true;

  constructor(
    id: string,
    private readonly dir: string,
    private readonly child: ChildProcess,
    client: SupervisorClient,
    private readonly logger: Logger,
    private readonly onDestroyed: () => void,
  ) {
    super(id, client);
    child.once('exit', (code, signal) => {
      if (this.destroying === undefined) logger.warn({ code, signal }, 'sandbox supervisor exited unexpectedly');
    });
  }

  destroy(): Promise<void> {
    this.destroying ??= (async () => {
      await stopProcess(this.child);
      this.closeClient();
      await removeSandboxDir(this.id, this.dir);
      this.onDestroyed();
      this.logger.debug('local sandbox destroyed');
    })();
    return this.destroying;
  }
}

/** SIGTERM lets the supervisor close Chromium and kill the code it runs; SIGKILL its group if it takes too long. */
async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const gaveUp = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(true), STOP_GRACE_MS);
  });
  if (await Promise.race([exited.then(() => false), gaveUp])) {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // Exited meanwhile.
    }
    await exited;
  }
  clearTimeout(timer);
}

async function removeSandboxDir(id: string, dir: string): Promise<void> {
  await killMarkedProcesses(id);
  // The input files' directory is read-only (0555) even for its owner, who could not remove what is in it otherwise.
  await chmod(join(dir, 'workspace', 'in'), 0o755).catch(() => undefined);
  await rm(dir, { recursive: true, force: true, maxRetries: 3 });
}
