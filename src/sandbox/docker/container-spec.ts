import type Docker from 'dockerode';

/**
 * The supervisor runs as root inside the container, with no capability but those it needs to start task code,
 * Chromium and file access as the image's `sandbox` user (10001, `--run-as` in templates/sandbox/Dockerfile) and to
 * stop them: code of another user cannot read its memory, environment or stdin, where its token went.
 */
const SUPERVISOR_USER = '0:0';
const SUPERVISOR_CAPABILITIES = ['SETUID', 'SETGID', 'KILL'];
export const SUPERVISOR_PORT = 7801;

const MIB = 1024 * 1024;

export interface ContainerLimits {
  memoryMb: number;
  cpus: number;
  pidsLimit: number;
}

export interface SandboxContainerSpecOptions {
  name: string;
  image: string;
  network: string;
  labels: Record<string, string>;
  limits: ContainerLimits;
  /** The engine's runtime to run it under; null: the engine's default. */
  runtime: string | null;
  /**
   * Publishes the supervisor's port on a random port of the engine's host (a remote engine, issue 26), where the
   * daemon reaches it; the bearer token is all that guards it there.
   */
  publishSupervisor?: boolean;
}

/**
 * A hardened container for one run, following the OWASP Docker Security Cheat Sheet: no capabilities beyond the
 * supervisor's three, no privilege escalation, a read-only root filesystem with size-limited tmpfs where the run
 * writes, task code as a non-root user, memory, CPU and process limits, an init that reaps zombies, no host mounts (in
 * particular no Docker socket), and a network of its own that the driver's firewall rules fence off from the host,
 * its networks and special-purpose ranges. Stdin stays open for the one attach that hands the supervisor its token and
 * the run's environment (see `SupervisorHandover`): the container's own environment is the image's.
 */
export function sandboxContainerSpec(options: SandboxContainerSpecOptions): Docker.ContainerCreateOptions {
  const memory = options.limits.memoryMb * MIB;
  return {
    name: options.name,
    Image: options.image,
    User: SUPERVISOR_USER,
    WorkingDir: '/workspace',
    OpenStdin: true,
    StdinOnce: true,
    AttachStdin: true,
    Labels: options.labels,
    ExposedPorts: { [`${SUPERVISOR_PORT}/tcp`]: {} },
    HostConfig: {
      ...(options.runtime === null ? {} : { Runtime: options.runtime }),
      NetworkMode: options.network,
      ...(options.publishSupervisor === true ? { PortBindings: { [`${SUPERVISOR_PORT}/tcp`]: [{ HostIp: '0.0.0.0', HostPort: '' }] } } : {}),
      Privileged: false,
      CapDrop: ['ALL'],
      CapAdd: SUPERVISOR_CAPABILITIES,
      SecurityOpt: ['no-new-privileges'],
      ReadonlyRootfs: true,
      Tmpfs: {
        '/workspace': 'rw,exec,nosuid,nodev,size=1g,uid=10001,gid=10001,mode=0755',
        // The run's input files (issue 23), written by the supervisor (root) and only readable by task code, which
        // can neither add, change, remove nor move them: the mount is root's and its files 0444 (input-files.ts).
        '/workspace/in': 'rw,noexec,nosuid,nodev,size=1g,uid=0,gid=0,mode=0555',
        // Chromium's profile and the supervisor's scratch files; exec so that tools unpacked there can run.
        '/tmp': 'rw,exec,nosuid,nodev,size=512m,mode=1777',
        '/home/sandbox': 'rw,noexec,nosuid,nodev,size=64m,uid=10001,gid=10001,mode=0700',
      },
      ShmSize: 256 * MIB,
      IpcMode: 'private',
      Memory: memory,
      // Equal to Memory: no swap on top of the limit.
      MemorySwap: memory,
      NanoCpus: Math.round(options.limits.cpus * 1e9),
      PidsLimit: options.limits.pidsLimit,
      Init: true,
      // Docker already disables IPv6 on networks without it; pinned here because the host's bridge has an IPv6
      // link-local address that the IPv4 firewall rules do not cover.
      Sysctls: { 'net.ipv6.conf.all.disable_ipv6': '1', 'net.ipv6.conf.default.disable_ipv6': '1' },
      Binds: [],
      RestartPolicy: { Name: 'no' },
      LogConfig: { Type: 'json-file', Config: { 'max-size': '1m', 'max-file': '1' } },
    },
  };
}

/** Names the Docker API accepts for an environment variable: not empty, no `=`, no NUL. */
export function isValidEnvName(name: string): boolean {
  return name.length > 0 && !name.includes('=') && !name.includes('\0');
}
