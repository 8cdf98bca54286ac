import { setTimeout as sleep } from 'node:timers/promises';
import { isTerminal } from '../../../src/runs/state-machine.js';
import type { ApiClient, RunEnvelope } from '../../api-client.js';

export interface WatchRunOptions {
  intervalMs: number;
  signal?: AbortSignal;
}

/** Polls a run, yielding every envelope, and returns after the terminal one. */
export async function* watchRun(api: ApiClient, id: string, options: WatchRunOptions): AsyncGenerator<RunEnvelope> {
  for (;;) {
    const envelope = await api.getRun(id, options.signal);
    yield envelope;
    if (isTerminal(envelope.status)) return;
    await sleep(options.intervalMs, undefined, options.signal === undefined ? {} : { signal: options.signal });
  }
}
