import type { Readable } from 'node:stream';
import type { BrowserRequest, BrowserResult, BrowserState, ExecRequest, ExecResult, LiveInput, LoginCheck, LoginCheckResult, LoginLoaded, LoginRequest, MaskForm, OutputLimits, OutputListing, ProxyRequest } from './protocol.js';

export type SandboxDriverName = 'local' | 'docker';

/** The one host's name without `sandbox.hosts`: the engine `sandbox.driver` found (or the local driver's processes). */
export const LOCAL_HOST = 'local';

export interface SandboxCreateOptions {
  runId: string;
  /** Injected into the sandbox's environment (token connections). Never logged. */
  env: Record<string, string>;
  signal: AbortSignal;
  /** The room the dispatcher reserved for the run (several hosts, issue 26): its sandbox starts on that host. */
  slot?: SandboxSlot;
}

/** Room for one run on one sandbox host, held from the run's claim until its attempt ends (issue 26). */
export interface SandboxSlot {
  readonly host: string;
  /** Gives the room back; idempotent. */
  release(): void;
}

/**
 * Where runs go when sandboxes run on several Docker engines (`sandbox.hosts`): the dispatcher claims a run only once
 * a host has room for it, so that a run waits `queued` while every host that fits it is full.
 */
export interface SandboxPlacement {
  /** Room on the least loaded host that is up and has `label` (any host when null); null when none has room. */
  reserve(label: string | null): SandboxSlot | null;
  /** Calls `listener` with a host's name each time it is marked down; answers the unsubscribe. */
  onHostDown(listener: (host: string) => void): () => void;
}

/** A run's egress proxy as its sandbox gets it (issue 23, item 4). */
export interface SandboxProxy {
  /** What the supervisor gets (POST /proxy): the proxy, its credentials, and how a failure names it. */
  request: ProxyRequest;
  /** The addresses its host resolved to when the run started, and its port: all a docker sandbox may reach then. */
  addresses: readonly string[];
  port: number;
}

/** One run's isolated workspace with a browser and code execution. Never shared between runs. */
export interface Sandbox {
  readonly id: string;
  /**
   * Whether its browser and code reach the daemon's host's loopback and private networks: the local driver's
   * processes share the host's network, and a docker sandbox reaches what its run's proxy reaches once it has one; a
   * docker sandbox without a proxy does not (127.0.0.1 there is the container itself, and its firewall refuses private
   * and special-purpose ranges).
   */
  readonly reachesHost: boolean;
  /**
   * Sends the browser and code out through `proxy` from now on; called once, when the run starts using the sandbox,
   * before its first action. The docker driver also fences the sandbox's network to the proxy alone.
   */
  useProxy(proxy: SandboxProxy, signal: AbortSignal): Promise<void>;
  exec(request: ExecRequest, signal: AbortSignal): Promise<ExecResult>;
  browser(request: BrowserRequest, signal: AbortSignal): Promise<BrowserResult>;
  /**
   * The run's saved login (docs/api.md, Profiles): its state loaded into the browser before the first action (the
   * warm one, without a second launch), or only its name, for a run that saves what its browser holds at the end. Its
   * values are masked by the sandbox itself from then on, in every result, the recording and the live view's text.
   */
  useLogin(request: LoginRequest, signal: AbortSignal): Promise<LoginLoaded>;
  /** The browser's state now (cookies, each origin's storage), to be sealed as a profile's. */
  readLogin(signal: AbortSignal): Promise<BrowserState>;
  /** Loads the check's page in the browser and answers whether what shows only when signed in is there. */
  checkLogin(check: LoginCheck, signal: AbortSignal): Promise<LoginCheckResult>;
  /** Records the browser (a Playwright trace, and a video of its frames) from its launch, or from now if it runs. */
  startRecording(signal: AbortSignal): Promise<void>;
  /** Ends the recording, with `mask`'s forms replaced in the trace; null when the browser was never recorded. */
  finishRecording(mask: readonly MaskForm[], signal: AbortSignal): Promise<RecordingFiles | null>;
  /**
   * Places one of the run's input files at /workspace/in/<name>, read-only for task code (issue 23): `name` is the
   * file's sanitised stored name, `content` its bytes, streamed.
   */
  putInput(name: string, content: Readable, signal: AbortSignal): Promise<void>;
  /** The browser's live view (`LiveFrame` events, protocol.ts), screencast only while such a stream is open. */
  liveFrames(signal: AbortSignal): Promise<ReadableStream<Uint8Array>>;
  /** A person's input to the browser's page (takeover); SandboxError `no_page` before the browser has one. */
  liveInput(input: LiveInput, signal: AbortSignal): Promise<void>;
  /** The run's limits on its files (issue 23, item 2), sent as the run starts: browser downloads stop at them. */
  limitOutputs(limits: OutputLimits, signal: AbortSignal): Promise<void>;
  /** The files under /workspace/out/ (browser downloads among them), once downloads under way have ended. */
  listOutputs(signal: AbortSignal): Promise<OutputListing>;
  /** One listed file's bytes, streamed; SandboxError `not_found` when it is no longer there. */
  readOutput(name: string, signal: AbortSignal): Promise<ReadableStream<Uint8Array>>;
  /** Stops everything the sandbox started and removes it; safe to call more than once. */
  destroy(): Promise<void>;
}

/** A finished recording: the trace zip, and the WebM video when one could be made (`detail` says why not). */
export interface RecordingFiles {
  trace: Buffer;
  video: Buffer | null;
  detail: string | null;
}

/** Whether the sandbox firewall is in place (docker driver). */
export interface FirewallReport {
  installed: boolean;
  detail: string;
}

/** What the daemon says about its sandboxes (`GET /v1/status`, `errand doctor`). */
export interface SandboxReport {
  driver: SandboxDriverName;
  /** Whether task code is kept from the daemon's environment, data directory and networks. */
  isolated: boolean;
  image: string | null;
  /** The OCI runtime docker sandboxes run under (runc, runsc); null for the local driver. */
  runtime: string | null;
  warmPool: { size: number; ready: number } | null;
  firewall: FirewallReport | null;
  /** Every Docker engine sandboxes run on (the one local engine without `sandbox.hosts`); empty for the local driver. */
  hosts: SandboxHostReport[];
}

/** One Docker engine as `GET /v1/status` shows it (`sandbox.hosts[]`). */
export interface SandboxHostReport {
  name: string;
  /** Without credentials. */
  url: string;
  state: 'up' | 'down';
  /** Why it is down, as its last check found (no answer, an SSH host key refused, no image); null when up. */
  problem: string | null;
  capacity: { runs: number; memory_mb: number };
  load: { runs: number; memory_mb: number };
  pool: { size: number; ready: number };
  runtime: string;
  labels: string[];
  /** `installed` null: not checked (a remote host's rules are checked through its helper container). */
  firewall: { required: boolean; installed: boolean | null; detail: string | null };
}

export interface SandboxDriver {
  readonly name: SandboxDriverName;
  /** How the sandboxes stand now. */
  report(): Promise<SandboxReport>;
  /** Started sandboxes ready for the next runs (0 for a driver without a pool). */
  readonly warmCount: number;
  /** Ready pooled sandboxes by host name (empty for the local driver), for the metrics. */
  warmCountsByHost(): ReadonlyMap<string, number>;
  /** Present with several hosts (`sandbox.hosts`): the dispatcher places runs through it. */
  readonly placement?: SandboxPlacement;
  /** Whether a run may ask for `label` (`sandbox_label`): some host of `sandbox.hosts` has it. */
  hasLabel(label: string): boolean;
  create(options: SandboxCreateOptions): Promise<Sandbox>;
  /** Removes sandboxes left behind by a daemon that died; returns how many. */
  removeOrphans(): Promise<number>;
  /** Stops pools and background work; idempotent. */
  close(): Promise<void>;
}
