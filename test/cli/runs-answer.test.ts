/**
 * `errand runs answer` answers the question it names or shows, never another: with --request it sends that request
 * id; without, at a terminal (tmux), it shows what the run asks now and sends that question's id once the person says
 * yes, so that a question replaced meanwhile is refused, saying what the run asks now; without a terminal it sends
 * nothing and says which --request would answer what. Against the compiled CLI and a test daemon with a scripted agent.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createRun, startEngine, untilRunWaits, waitForRun, type EngineHarness } from '../engine/harness.js';
import { toolResults, toolUse } from '../fixtures/scripted-anthropic.js';
import { hasTmux, TmuxTerminal } from '../fixtures/tmux-terminal.js';
import { runCli } from './run-cli.js';

const ERRAND = fileURLToPath(new URL('../../bin/errand', import.meta.url));
const SMALL = 'Approve wiring $90 to ACME?';
const LARGE = 'Approve wiring $9000 to ACME?';

let h: EngineHarness;
let term: TmuxTerminal | null = null;

beforeAll(async () => {
  h = await startEngine();
});

afterEach(async () => {
  await term?.close();
  term = null;
});

afterAll(async () => {
  await h?.close();
});

const cli = (...args: string[]) => runCli(['--home', h.daemon.home, ...args], { env: { ERRAND_API_URL: h.daemon.url, ERRAND_API_KEY: h.daemon.key } });

/** A run whose agent asks SMALL, then LARGE, then finishes; answers it once it asks SMALL. */
async function twoApprovals(): Promise<{ runId: string; small: any; start: number }> {
  const start = h.model.requests.length;
  h.model.script([
    toolUse('request_human', { kind: 'approve', question: SMALL }),
    toolUse('request_human', { kind: 'approve', question: LARGE }),
    toolUse('finish', { result: null, failure_reason: 'not_found', failure_detail: 'stopped' }),
  ]);
  const runId = await createRun(h.daemon, { prompt: 'Wire the money' });
  return { runId, small: await asking(runId, SMALL), start };
}

async function asking(runId: string, question: string): Promise<any> {
  return (await untilRunWaits(h.daemon, runId, JSON.stringify(question), (w) => w.question === question)).waiting_for;
}

describe('errand runs answer', () => {
  it('sends nothing without --request when no terminal can confirm, and says which --request answers what the run asks', async () => {
    const { runId, small } = await twoApprovals();
    const refused = await cli('runs', 'answer', runId, '--approve');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`${runId} asks a person (approve, ${small.request_id}):\n  ${SMALL}`);
    expect(refused.stderr).toContain(`Answer it with --request ${small.request_id}`);
    expect((await h.daemon.api('GET', `/v1/runs/${runId}`)).body.waiting_for).toMatchObject({ request_id: small.request_id });

    // Sent again with the --request it named: the answer goes to that question; sent again later, to nothing else.
    expect((await cli('runs', 'answer', runId, '--approve', '--request', small.request_id)).code).toBe(0);
    const large = await asking(runId, LARGE);
    const again = await cli('runs', 'answer', runId, '--approve', '--request', small.request_id);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`now waits for another question, ${large.request_id} (approve): "${LARGE}"; ${small.request_id} was answered already`);
    expect((await h.daemon.api('GET', `/v1/runs/${runId}`)).body.waiting_for).toMatchObject({ request_id: large.request_id });
    expect((await cli('runs', 'answer', runId, '--deny', '--request', large.request_id)).code).toBe(0);
    await waitForRun(h.daemon, runId);
  });

  it.skipIf(!hasTmux())('at a terminal, shows the question and sends its id once confirmed: a question replaced meanwhile is refused, not answered', async () => {
    const { runId, small, start } = await twoApprovals();
    const errand = async () => {
      term = await TmuxTerminal.start([process.execPath, ERRAND, '--home', h.daemon.home, 'runs', 'answer', runId, '--approve'], {
        env: { ERRAND_API_URL: h.daemon.url, ERRAND_API_KEY: h.daemon.key, TERM: 'xterm-256color' },
        columns: 120,
        rows: 30,
      });
      return term;
    };

    const t = await errand();
    await t.waitFor((s) => s.includes(SMALL) && s.includes('Send an approval to this question? [y/N]'));
    // While the person reads, someone else answers that question and the agent asks a larger one.
    expect((await h.daemon.api('POST', `/v1/runs/${runId}/human`, { request_id: small.request_id, approved: false })).status).toBe(200);
    const large = await asking(runId, LARGE);
    await t.type('y');
    await t.keys('Enter');
    expect(await t.exited()).toBe(1);
    expect((await t.screen(true)).replace(/\n/g, '')).toContain(`now waits for another question, ${large.request_id} (approve): "${LARGE}"`);
    expect((await h.daemon.api('GET', `/v1/runs/${runId}`)).body.waiting_for).toMatchObject({ request_id: large.request_id });
    await t.close();

    const second = await errand();
    await second.waitFor((s) => s.includes(LARGE) && s.includes(large.request_id) && s.includes('[y/N]'));
    await second.type('y');
    await second.keys('Enter');
    expect(await second.exited()).toBe(0);
    await waitForRun(h.daemon, runId);
    expect(toolResults(h.model.requests[start + 2]!)[0]!.text).toMatch(/^A person APPROVED \(key key_[0-9a-z]+, via cli\)/);
  });
});
