import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDaemon, type Daemon } from '../../daemon/wiring.js';
import type { AttemptParticipant, AttemptRole } from '../../src/attempt/attempt-participant.js';
import { resolveConfig } from '../../src/config/load.js';
import { startScriptedAnthropic, toolUse, type ScriptedAnthropic } from '../fixtures/scripted-anthropic.js';
import { NO_DNS_SERVER } from '../fixtures/test-daemon.js';
import { tempDir } from '../fixtures/temp-dir.js';

const MODEL_KEY = 'test-model-key';

/** What the throwaway participants saw, in order: `<name>.<hook>`. */
const seen: string[] = [];
/** What each throwaway participant does, set by each test. */
const behaviour = new Map<string, Partial<AttemptRole> | null>();

/** A participant written for this test alone: it records each hook it is called at, and acts as the test says. */
function throwaway(name: string): AttemptParticipant {
  return {
    name,
    async join(attempt) {
      seen.push(`${name}.join:${attempt.run.id}`);
      const does = behaviour.get(name);
      if (does === null) return null;
      return {
        ...does,
        begin: async (context) => {
          seen.push(`${name}.begin:${context.run.id}`);
          return (await does?.begin?.(context)) ?? null;
        },
        settle: async (outcome) => {
          seen.push(`${name}.settle:${outcome.status}`);
          return (await does?.settle?.(outcome)) ?? null;
        },
        close: async () => {
          seen.push(`${name}.close`);
        },
      };
    },
  };
}

let model: ScriptedAnthropic;
let daemon: Daemon;
let url: string;
let key: string;
let home: ReturnType<typeof tempDir>;

beforeAll(async () => {
  model = await startScriptedAnthropic({ apiKey: MODEL_KEY });
  home = tempDir('errand-participants-');
  const env = { ERRAND_SANDBOX_DRIVER: 'local', ERRAND_DNS_SERVERS: NO_DNS_SERVER, ANTHROPIC_BASE_URL: model.baseUrl, ANTHROPIC_API_KEY: MODEL_KEY };
  const { config } = resolveConfig({ home: home.path, env, flags: { 'server.port': '0', dev: true } });
  // The daemon's own participants, then two of this test's: nothing of the executor changes for them.
  daemon = await createDaemon({ home: home.path, config, logger: pino({ level: 'silent' }), env, participants: [throwaway('first'), throwaway('second')] });
  url = await daemon.start();
  const org = daemon.admin.orgs.ensureDefault()!;
  key = daemon.admin.keys.create({ orgId: org.id, name: 'participants test' }).key;
});

afterAll(async () => {
  await daemon?.close();
  await model?.close();
  home?.remove();
});

async function api(method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${url}${path}`, { method, headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) });
  return res.json();
}

async function ended(runId: string): Promise<any> {
  for (;;) {
    const run = await api('GET', `/v1/runs/${runId}`);
    if (['succeeded', 'failed', 'cancelled'].includes(run.status)) return run;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The hooks the throwaway participants were called at for the run (each test runs one), without its id. */
function hooksOf(runId: string): string[] {
  return seen.map((s) => s.replace(`:${runId}`, ''));
}

describe('an attempt with participants', () => {
  it('joins them in order once its sandbox is up, lets each settle the outcome (changes in order), and closes them in reverse', async () => {
    seen.length = 0;
    behaviour.set('first', { settle: async () => (outcome) => ({ ...outcome, warnings: [...outcome.warnings, 'first saw it'] }) });
    behaviour.set('second', { settle: async () => (outcome) => ({ ...outcome, warnings: [...outcome.warnings, 'second saw it'] }) });
    model.script([toolUse('finish', { result: { ok: true }, confidence: 'high' })]);
    const { task_id: runId } = await api('POST', '/v1/runs', { prompt: 'Say ok' });
    const run = await ended(runId);

    expect(run).toMatchObject({ status: 'succeeded', result: { ok: true } });
    expect(run.warnings).toEqual(['first saw it', 'second saw it']);
    expect(hooksOf(runId)).toEqual(['first.join', 'second.join', 'first.begin', 'second.begin', 'first.settle:succeeded', 'second.settle:succeeded', 'second.close', 'first.close']);
  });

  it('lets a participant carry the attempt out before the agent starts, and asks the later ones nothing', async () => {
    seen.length = 0;
    const before = model.requests.length;
    behaviour.set('first', { begin: async () => ({ kind: 'finished', outcome: { status: 'succeeded', result: { by: 'first' }, confidence: 'medium', evidence: null, warnings: [], mode: 'replay' } }) });
    behaviour.set('second', {});
    const { task_id: runId } = await api('POST', '/v1/runs', { prompt: 'Say ok' });
    const run = await ended(runId);

    expect(run).toMatchObject({ status: 'succeeded', result: { by: 'first' }, mode: 'replay' });
    expect(model.requests.length).toBe(before);
    expect(hooksOf(runId)).toEqual(['first.join', 'second.join', 'first.begin', 'first.settle:succeeded', 'second.settle:succeeded', 'second.close', 'first.close']);
  });

  it('leaves out a participant that has no part in the attempt, and closes the others once when the attempt fails', async () => {
    seen.length = 0;
    behaviour.set('first', {});
    behaviour.set('second', null);
    model.script([toolUse('finish', { result: null, failure_reason: 'not_found', failure_detail: 'nothing there' })]);
    const { task_id: runId } = await api('POST', '/v1/runs', { prompt: 'Find nothing' });
    const run = await ended(runId);

    expect(run).toMatchObject({ status: 'failed', failure_reason: 'not_found' });
    expect(hooksOf(runId)).toEqual(['first.join', 'second.join', 'first.begin', 'first.settle:failed', 'first.close']);
  });

  it('closes the participants that joined when the run is cancelled, and settles nothing', async () => {
    seen.length = 0;
    let release = (): void => undefined;
    const begun = new Promise<void>((resolve) => {
      behaviour.set('first', {
        // Holds the attempt before its agent, until the cancel has stopped it.
        begin: (context) =>
          new Promise((_, reject) => {
            resolve();
            release = () => reject(context.signal.reason as Error);
            context.signal.addEventListener('abort', () => release(), { once: true });
          }),
      });
    });
    behaviour.set('second', {});
    const { task_id: runId } = await api('POST', '/v1/runs', { prompt: 'Wait' });
    await begun;
    await api('POST', `/v1/runs/${runId}/cancel`);
    expect((await ended(runId)).status).toBe('cancelled');
    for (;;) {
      if (seen.includes('first.close')) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(hooksOf(runId)).toEqual(['first.join', 'second.join', 'first.begin', 'second.close', 'first.close']);
  });
});
