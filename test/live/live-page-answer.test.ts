/**
 * The live page answers the question it shows, and only that one: its POST /v1/runs/{id}/human names the request
 * shown, and an answer typed for a question that was answered elsewhere meanwhile is emptied, never sent to the next
 * question. The compiled daemon, a scripted agent, the local driver, and the page in headless Chromium.
 */
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRun, startEngine, untilRunWaits, waitForRun, type EngineHarness } from '../engine/harness.js';
import { toolResults, toolUse } from '../fixtures/scripted-anthropic.js';

const COLOUR = 'Which colour should the invoice be printed in?';
const COPIES = 'How many copies?';

let browser: Browser;
let h: EngineHarness;
let viewer: Page;

beforeAll(async () => {
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox'] });
  h = await startEngine();
  viewer = await browser.newPage();
});

afterAll(async () => {
  await viewer?.close();
  await browser?.close();
  await h?.close();
});

async function asked(runId: string, question: string): Promise<any> {
  return (await untilRunWaits(h.daemon, runId, JSON.stringify(question), (w) => w.question === question)).waiting_for;
}

const shows = (question: string) => viewer.waitForFunction((q) => document.getElementById('waiting-question')!.textContent === q, question);

describe('the live page answering a person\'s question', () => {
  it('empties an answer typed for a question answered elsewhere meanwhile, and sends the next answer with the request it shows', async () => {
    const start = h.model.requests.length;
    h.model.script([
      toolUse('request_human', { kind: 'answer', question: COLOUR }),
      toolUse('request_human', { kind: 'answer', question: COPIES }),
      toolUse('finish', { result: { ok: true }, confidence: 'high', matched_text: 'ok' }),
    ]);
    const runId = await createRun(h.daemon, { prompt: 'Print the invoice' });
    const first = await asked(runId, COLOUR);
    await viewer.goto(first.live_url);
    await shows(COLOUR);
    await viewer.fill('#answer', 'blue');

    // Someone else answers the first question through the API; the agent asks the second.
    expect((await h.daemon.api('POST', `/v1/runs/${runId}/human`, { request_id: first.request_id, answer: 'red' })).status).toBe(200);
    const second = await asked(runId, COPIES);
    await shows(COPIES);
    expect(await viewer.inputValue('#answer')).toBe('');
    expect(await viewer.textContent('#problem')).toContain('your answer was not sent');

    await viewer.fill('#answer', '3');
    const [sent] = await Promise.all([viewer.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith(`/v1/runs/${runId}/human`)), viewer.click('#send-answer')]);
    expect(sent.postDataJSON()).toEqual({ request_id: second.request_id, answer: '3' });
    await waitForRun(h.daemon, runId);
    expect(toolResults(h.model.requests[start + 1]!)[0]!.text).toMatch(/^A person answered \(key key_[0-9a-z]+, via api\):\nred$/);
    expect(toolResults(h.model.requests[start + 2]!)[0]!.text).toBe('A person answered (live link, via live):\n3');
  });
});
