import { render } from 'ink';
import type { RunUpdate } from '../run-updates.js';
import { WaitApp, type WaitOutcome } from './wait-app.js';

/** Renders the waiting view on `stream` (stderr, so stdout keeps only the result) until the run ends. */
export async function renderWait(runId: string, updates: AsyncIterable<RunUpdate>, stream: NodeJS.WriteStream, cliName: string): Promise<WaitOutcome> {
  let outcome: WaitOutcome = { error: new Error('the progress view closed before the run ended') };
  const app = render(<WaitApp runId={runId} updates={updates} cliName={cliName} onDone={(o) => (outcome = o)} />, {
    stdout: stream,
    patchConsole: false,
    exitOnCtrlC: false,
  });
  await app.waitUntilExit();
  return outcome;
}
