import { randomBytes } from 'node:crypto';
import type Docker from 'dockerode';
import type { Logger } from 'pino';
import type { FirewallReport, Sandbox, SandboxCreateOptions, SandboxDriver, SandboxHostReport, SandboxPlacement, SandboxReport, SandboxSlot } from '../driver.js';
import { SandboxError } from '../sandbox-error.js';
import type { ContainerLimits } from './container-spec.js';
import { GatedSandbox } from '../gated-sandbox.js';
import { DockerDriver, HostFirewallMissing } from './docker-driver.js';
import { checkSandboxFirewall } from './firewall-check.js';
import { imageExists } from './image-exists.js';
import type { HostEngine, SandboxHostSpec } from './sandbox-hosts.js';

export interface HostSetDriverOptions {
  hosts: readonly SandboxHostSpec[];
  /** A Docker client per host, and what its failed calls mean (engineForHost). */
  engineFor: (host: SandboxHostSpec) => HostEngine;
  image: string;
  home: string;
  logger: Logger;
  limits: ContainerLimits;
  warmPoolSize: number;
  warmPoolBrowser: boolean;
  /** `sandbox.runtime`: each host's unless it names its own. */
  runtime: string | null;
  /** How often each host is pinged; one that does not answer within it is down. */
  checkMs: number;
}

/** One engine of the set, as this daemon sees it now. */
interface Host {
  spec: SandboxHostSpec;
  docker: Docker;
  /** What a failed call to the host means (HostEngine). */
  explain: (error: unknown) => string;
  /** Ends its Docker client's kept connection (HostEngine). */
  close: () => void;
  /** Null until the host first answered with the image and its runtime in place. */
  driver: DockerDriver | null;
  up: boolean;
  /** Why the host is down: logged when it changes, and reported with it. */
  problem: string | null;
  /** Reserved slots: the runs placed here whose attempts have not ended. */
  runs: number;
  /** The check under way, which a second caller waits for rather than starting another. */
  checking: Promise<void> | null;
  /** When a remote host's firewall was last put in place or checked (Date.now()), and what that found. */
  firewallCheckedAt: number;
  firewall: FirewallReport | null;
}

/**
 * How often a remote host that is up has its firewall put in place again (`auto`, for routes that changed there) or
 * checked in full (`manual`); between those, each host check looks at the rules quickly (`verifyHostFirewall`), as
 * every run's start there does.
 */
const FIREWALL_RECHECK_MS = 60_000;

/**
 * Sandboxes on several Docker engines (`sandbox.hosts`, issue 26): a `DockerDriver` per engine (its own warm pool,
 * network and orphan sweep), a placement the dispatcher claims runs through (least loaded host with room and the
 * run's label), and a check of every host each `checkMs`. A host that does not answer is marked down: the
 * dispatcher stops its runs, whose leases lapse and which are re-queued as after a daemon crash; it gets runs again
 * once it answers, after its leftover containers are removed.
 */
export class HostSetDriver implements SandboxDriver, SandboxPlacement {
  readonly name = 'docker';
  readonly placement: SandboxPlacement = this;
  private readonly hosts: Host[];
  private readonly downListeners = new Set<(host: string) => void>();
  private readonly instanceId = randomBytes(8).toString('hex');
  private timer: NodeJS.Timeout | undefined;
  /** Set once the first checks are done: a host first reached after them has its orphans swept when it comes up. */
  private started = false;
  private closing: Promise<void> | undefined;

  private constructor(private readonly options: HostSetDriverOptions) {
    this.hosts = options.hosts.map((spec) => ({ spec, ...options.engineFor(spec), driver: null, up: false, problem: null, runs: 0, checking: null, firewallCheckedAt: 0, firewall: null }));
  }

  /** Connects to every host that answers (the others are retried each check) and starts checking them. */
  static async start(options: HostSetDriverOptions): Promise<HostSetDriver> {
    const driver = new HostSetDriver(options);
    await Promise.all(driver.hosts.map((host) => driver.check(host)));
    driver.started = true;
    driver.timer = setInterval(() => {
      for (const host of driver.hosts) void driver.check(host);
    }, options.checkMs);
    driver.timer.unref();
    return driver;
  }

  get warmCount(): number {
    return this.hosts.reduce((sum, host) => sum + (host.up ? (host.driver?.warmCount ?? 0) : 0), 0);
  }

  warmCountsByHost(): ReadonlyMap<string, number> {
    return new Map(this.hosts.map((host) => [host.spec.name, host.up ? (host.driver?.warmCount ?? 0) : 0]));
  }

  hasLabel(label: string): boolean {
    return this.hosts.some((host) => host.spec.labels.includes(label));
  }

  reserve(label: string | null): SandboxSlot | null {
    const perRun = this.options.limits.memoryMb;
    const fits = this.hosts.filter(
      (host) =>
        host.up &&
        host.driver !== null &&
        (label === null || host.spec.labels.includes(label)) &&
        host.runs < host.spec.capacity.runs &&
        (host.runs + 1) * perRun <= host.spec.capacity.memoryMb,
    );
    // Least loaded by the share of its runs in use; the order of sandbox.hosts breaks ties.
    const chosen = fits.reduce<Host | null>((best, host) => (best === null || host.runs / host.spec.capacity.runs < best.runs / best.spec.capacity.runs ? host : best), null);
    if (chosen === null) return null;
    chosen.runs++;
    let released = false;
    return {
      host: chosen.spec.name,
      release: () => {
        if (released) return;
        released = true;
        chosen.runs--;
      },
    };
  }

  onHostDown(listener: (host: string) => void): () => void {
    this.downListeners.add(listener);
    return () => this.downListeners.delete(listener);
  }

  /**
   * The run's sandbox on the host placed for it. A remote host's firewall is looked at as the sandbox starts, and the
   * run may act in it (code, the browser) only once the rules were seen in place (`GatedSandbox`): a host whose rules
   * went (flushed, a reboot) is marked down at once, which stops the run (and the host's other runs) to re-queue it,
   * and is checked again at once (`auto` puts the rules back there).
   */
  async create(options: SandboxCreateOptions): Promise<Sandbox> {
    if (options.slot === undefined) throw new SandboxError('a run reached the sandboxes without a host placed for it', { code: 'start_failed' });
    const host = this.hosts.find((h) => h.spec.name === options.slot?.host);
    const driver = host?.driver;
    if (host === undefined || !host.up || !driver) {
      throw new SandboxError(`the sandbox host ${options.slot.host} is down`, { code: 'start_failed' });
    }
    const fenced = this.firewallInPlace(host, driver);
    // Handled here too: it may fail while the sandbox still starts, or with no sandbox to gate.
    fenced?.catch(() => undefined);
    let sandbox: Sandbox;
    try {
      sandbox = await driver.create(options);
    } catch (error) {
      // A host that fails a start may be gone: checked now, so that its run is re-queued rather than failed.
      if (!options.signal.aborted) await this.check(host);
      throw error;
    }
    return fenced === null ? sandbox : new GatedSandbox(sandbox, fenced);
  }

  /**
   * Resolves once the host's firewall was seen in place now; rejects, after marking the host down (its runs stop and
   * are re-queued) and checking it again, when it was not. Null for a host whose firewall is not the daemon's to look
   * at (the local engine's keeper, or `firewall: "off"`).
   */
  private firewallInPlace(host: Host, driver: DockerDriver): Promise<void> | null {
    if (!driver.checksHostFirewall) return null;
    return driver.verifyHostFirewall().then((report) => {
      if (report === null || report.installed) return;
      host.firewall = report;
      const missing = new HostFirewallMissing(report);
      if (host.up) {
        this.markDown(host, host.explain(missing));
        // Checked again now rather than at the next tick: with `auto` that puts the rules back, and the host takes runs again.
        void this.check(host);
      }
      throw missing;
    });
  }

  async report(): Promise<SandboxReport> {
    const local = this.hosts.find((host) => host.spec.kind === 'unix' && host.driver !== null);
    const localFirewall = local?.driver ? await checkSandboxFirewall(local.driver.network.bridge) : null;
    const hosts = this.hosts.map((host) => this.hostReport(host, host === local ? localFirewall : host.firewall));
    const ready = hosts.reduce((sum, host) => sum + host.pool.ready, 0);
    return {
      driver: 'docker',
      isolated: true,
      image: this.options.image,
      runtime: this.options.runtime ?? hosts.find((host) => host.state === 'up')?.runtime ?? null,
      warmPool: { size: this.options.warmPoolSize * this.hosts.length, ready },
      firewall: localFirewall,
      hosts,
    };
  }

  async removeOrphans(): Promise<number> {
    const removed = await Promise.all(this.hosts.map((host) => (host.up && host.driver !== null ? host.driver.removeOrphans().catch(() => 0) : 0)));
    return removed.reduce((sum, n) => sum + n, 0);
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      clearInterval(this.timer);
      await Promise.all(this.hosts.map((host) => host.driver?.close()));
      // After the drivers, whose close removes containers through these clients.
      for (const host of this.hosts) host.close();
    })();
    return this.closing;
  }

  private hostReport(host: Host, firewall: { installed: boolean; detail: string } | null): SandboxHostReport {
    const { spec } = host;
    const state = host.up ? 'up' : 'down';
    // Its load is the runs placed there, as placement counts them: a run's sandbox may still be starting.
    const load = { runs: host.runs, memory_mb: host.runs * this.options.limits.memoryMb };
    const problem = host.up ? null : (host.problem ?? 'not checked yet');
    if (host.driver !== null) return { ...host.driver.hostReport(state, firewall), problem, load };
    return {
      name: spec.name,
      url: spec.displayUrl,
      state,
      problem,
      capacity: { runs: spec.capacity.runs, memory_mb: spec.capacity.memoryMb },
      load,
      pool: { size: this.options.warmPoolSize, ready: 0 },
      runtime: spec.runtime ?? this.options.runtime ?? 'unknown',
      labels: [...spec.labels],
      firewall: {
        required: spec.firewall !== 'off',
        installed: firewall === null ? null : firewall.installed,
        detail: firewall === null ? (spec.firewall === 'off' ? 'not used: the host is opted out (firewall: "off")' : 'not checked') : firewall.detail,
      },
    };
  }

  /**
   * Pings the host within `checkMs`. Up to down: listeners are told (the dispatcher stops the host's runs). Down to
   * up: its driver starts (first time), or its containers left from before are removed, then it takes runs again.
   */
  private check(host: Host): Promise<void> {
    if (this.closing !== undefined) return Promise.resolve();
    host.checking ??= this.checkNow(host).finally(() => (host.checking = null));
    return host.checking;
  }

  private async checkNow(host: Host): Promise<void> {
    try {
      const problem = await this.problemOf(host);
      if (problem !== null) {
        this.markDown(host, problem);
        return;
      }
      if (host.up) {
        // A host's rules can go (a reboot, another tool flushing iptables): a quick look at every ping, and now and then
        // the full install (auto: the host's routes may have changed) or check (manual), which takes a few commands.
        if (host.driver === null) return;
        if (Date.now() - host.firewallCheckedAt >= FIREWALL_RECHECK_MS) {
          host.firewallCheckedAt = Date.now();
          await host.driver.ensureHostFirewall();
        } else {
          const report = await host.driver.verifyHostFirewall();
          if (report !== null && !report.installed) throw new HostFirewallMissing(report);
        }
        host.firewall = host.driver.hostFirewall;
        return;
      }
      if (host.driver === null) {
        if (host.spec.kind !== 'unix' && !(await imageExists(host.docker, this.options.image))) {
          throw new SandboxError(`the sandbox image ${this.options.image} is missing on host ${host.spec.name}; load it with \`errand sandbox build --host ${host.spec.name}\``);
        }
        host.driver = await DockerDriver.start({
          docker: host.docker,
          image: this.options.image,
          home: this.options.home,
          logger: this.options.logger.child({ sandboxHost: host.spec.name }),
          limits: this.options.limits,
          warmPoolSize: this.options.warmPoolSize,
          warmPoolBrowser: this.options.warmPoolBrowser,
          runtime: host.spec.runtime ?? this.options.runtime,
          instanceId: this.instanceId,
          remoteAddress: host.spec.address,
          host: {
            name: host.spec.name,
            url: host.spec.displayUrl,
            capacity: host.spec.capacity,
            labels: host.spec.labels,
            firewall: host.spec.firewall,
          },
        });
        if (this.closing !== undefined) await host.driver.close();
        // The dispatcher swept the hosts that answered at the start; this one's leftovers are swept as it first answers.
        else if (this.started) await host.driver.removeOrphans();
      } else {
        await host.driver.ensureHostFirewall();
        const removed = await host.driver.removeStrays();
        if (removed > 0) this.options.logger.info({ host: host.spec.name, removed }, 'removed the containers a lost sandbox host kept');
      }
      host.up = true;
      host.problem = null;
      host.firewallCheckedAt = Date.now();
      host.firewall = host.driver.hostFirewall;
      this.options.logger.info({ host: host.spec.name }, 'sandbox host is up');
    } catch (error) {
      if (error instanceof HostFirewallMissing) host.firewall = error.report;
      this.markDown(host, host.explain(error));
    }
  }

  private async problemOf(host: Host): Promise<string | null> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<string>((resolve) => (timer = setTimeout(() => resolve(`no answer within ${this.options.checkMs} ms`), this.options.checkMs)));
    try {
      return await Promise.race([host.docker.ping().then(() => null, (error: unknown) => host.explain(error)), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  private markDown(host: Host, problem: string): void {
    const wasUp = host.up;
    host.up = false;
    if (host.problem !== problem) this.options.logger.warn({ host: host.spec.name, problem }, 'sandbox host is down');
    host.problem = problem;
    if (wasUp) for (const listener of this.downListeners) listener(host.spec.name);
  }
}
