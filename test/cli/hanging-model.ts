/**
 * A model endpoint on loopback that accepts connections and never answers, so that runs started in CLI tests stay
 * `running` (or `queued` behind them) until the test cancels them, whatever the engine would otherwise do.
 */
import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface HangingModel {
  /** Environment for the daemon: the Anthropic provider pointed here, on the local sandbox driver, one run at a time. */
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function startHangingModel(): Promise<HangingModel> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    env: {
      ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}`,
      ANTHROPIC_API_KEY: 'test-model-key',
      ERRAND_SANDBOX_DRIVER: 'local',
      ERRAND_LIMITS_MAX_CONCURRENT_RUNS: '1',
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
