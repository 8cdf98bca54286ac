import { describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/driver.js';
import { GatedSandbox } from '../../src/sandbox/gated-sandbox.js';

/** A sandbox that records which of its methods were called, answering each at once. */
function recordingSandbox(): { sandbox: Sandbox; calls: string[] } {
  const calls: string[] = [];
  const sandbox = new Proxy({} as Sandbox, {
    get: (_target, name) => {
      if (name === 'id') return 'sbx_test';
      if (name === 'reachesHost') return false;
      if (name === 'then') return undefined;
      return async () => {
        calls.push(String(name));
        return null;
      };
    },
  });
  return { sandbox, calls };
}

function deferred(): { promise: Promise<void>; resolve: () => void; reject: (err: Error) => void } {
  let resolve!: () => void;
  let reject!: (err: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const signal = new AbortController().signal;

describe('GatedSandbox', () => {
  it('holds every action that reaches out until the gate opens, and lets housekeeping through at once', async () => {
    const { sandbox, calls } = recordingSandbox();
    const gate = deferred();
    const gated = new GatedSandbox(sandbox, gate.promise);

    const actions = [
      gated.exec({ language: 'python', code: 'print(1)', timeoutMs: 1000 }, signal),
      gated.browser({ action: 'snapshot' }, signal),
      gated.liveInput({ type: 'text', text: 'a' } as never, signal),
      gated.useProxy({ url: 'http://127.0.0.1:1' } as never, signal),
      gated.checkLogin({ url: 'http://127.0.0.1:1/account', text: 'Signed in' } as never, signal),
    ];
    await gated.listOutputs(signal);
    await gated.startRecording(signal);
    expect(calls).toEqual(['listOutputs', 'startRecording']);
    expect(gated.id).toBe('sbx_test');

    gate.resolve();
    await Promise.all(actions);
    expect(calls.slice(2).sort()).toEqual(['browser', 'checkLogin', 'exec', 'liveInput', 'useProxy']);
  });

  it('fails its actions with the gate\'s error when the gate fails, and never calls the sandbox for them', async () => {
    const { sandbox, calls } = recordingSandbox();
    const gate = deferred();
    const gated = new GatedSandbox(sandbox, gate.promise);
    gate.reject(new Error('the host firewall is not in place'));

    await expect(gated.exec({ language: 'python', code: 'print(1)', timeoutMs: 1000 }, signal)).rejects.toThrow('the host firewall is not in place');
    await gated.destroy();
    expect(calls).toEqual(['destroy']);
  });
});
