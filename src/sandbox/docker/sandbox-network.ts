import type Docker from 'dockerode';
import { SandboxError } from '../sandbox-error.js';
import { isNotFound } from './image-exists.js';
import { SANDBOX_LABEL } from './labels.js';

export const SANDBOX_NETWORK = 'errand-sandbox';
/** A fixed interface name, so that the firewall rules can match traffic from sandboxes with `-i`. */
export const SANDBOX_BRIDGE = 'errand0';

export interface SandboxNetwork {
  name: string;
  bridge: string;
  /** The host's address on the bridge. */
  gateway: string;
  subnet: string;
}

/**
 * The bridge network every sandbox joins, created once. Inter-container traffic is disabled on it (`enable_icc`),
 * so one run's sandbox cannot reach another's supervisor.
 */
export async function ensureSandboxNetwork(docker: Docker, name = SANDBOX_NETWORK, bridge = SANDBOX_BRIDGE): Promise<SandboxNetwork> {
  let inspected = await inspectNetwork(docker, name);
  if (inspected === null) {
    try {
      await docker.createNetwork({
        Name: name,
        Driver: 'bridge',
        CheckDuplicate: true,
        EnableIPv6: false,
        Internal: false,
        Labels: { [SANDBOX_LABEL]: '1' },
        Options: {
          'com.docker.network.bridge.name': bridge,
          'com.docker.network.bridge.enable_icc': 'false',
          'com.docker.network.bridge.enable_ip_masquerade': 'true',
        },
      });
    } catch (error) {
      // Another daemon (or test worker) created it meanwhile.
      if ((error as { statusCode?: unknown }).statusCode !== 409) throw error;
    }
    inspected = await inspectNetwork(docker, name);
  }
  if (inspected === null) throw new SandboxError(`docker network ${name} could not be created`);
  const actualBridge = inspected.Options?.['com.docker.network.bridge.name'];
  if (actualBridge !== bridge) {
    throw new SandboxError(
      `docker network ${name} exists with bridge interface ${actualBridge ?? '(default)'} instead of ${bridge}; remove it (docker network rm ${name}) and start again`,
    );
  }
  const ipam = inspected.IPAM?.Config?.[0];
  if (ipam?.Gateway === undefined || ipam.Subnet === undefined) {
    throw new SandboxError(`docker network ${name} has no IPv4 subnet`);
  }
  return { name, bridge, gateway: ipam.Gateway, subnet: ipam.Subnet };
}

async function inspectNetwork(docker: Docker, name: string): Promise<Docker.NetworkInspectInfo | null> {
  try {
    return (await docker.getNetwork(name).inspect()) as Docker.NetworkInspectInfo;
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}
