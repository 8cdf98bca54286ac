/**
 * docs/integrate.md's TypeScript examples are what callers copy first: they must compile against the SDK's types
 * and run, in order, against a real daemon. The webhook receiver (it listens for ever) is compiled only; S07 runs
 * the same verification against a real delivery.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSdkDaemon, type SdkDaemon } from './sdk-daemon.js';

const DOC = fileURLToPath(new URL('../../../docs/integrate.md', import.meta.url));
const SDK_ENTRY = fileURLToPath(new URL('../src/index.js', import.meta.url));
const TSC = fileURLToPath(new URL('../../../node_modules/typescript/bin/tsc', import.meta.url));
const DIR = fileURLToPath(new URL(`./.doc-examples-${process.pid}/`, import.meta.url));
const run = promisify(execFile);

function typescriptBlocks(): string[] {
  const doc = readFileSync(DOC, 'utf8');
  const section = doc.slice(doc.indexOf('\n## TypeScript\n'), doc.indexOf('\n## ', doc.indexOf('\n## TypeScript\n') + 1));
  return [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!.replaceAll("'@errand/sdk'", JSON.stringify(SDK_ENTRY)));
}

let daemon: SdkDaemon;

beforeAll(async () => {
  daemon = await startSdkDaemon();
  mkdirSync(DIR, { recursive: true });
});
afterAll(async () => {
  rmSync(DIR, { recursive: true, force: true });
  await daemon?.stop();
});

describe('docs/integrate.md, TypeScript', () => {
  it('has examples that compile against the SDK and run in order against a daemon', async () => {
    const blocks = typescriptBlocks();
    const receivers = blocks.filter((b) => b.includes('.listen('));
    const runnable = blocks.filter((b) => !b.includes('.listen('));
    expect(runnable.length).toBeGreaterThanOrEqual(5);
    expect(receivers).toHaveLength(1);
    writeFileSync(`${DIR}/examples.ts`, `${runnable.join('\n')}\nexport {};\n`);
    writeFileSync(`${DIR}/receiver.ts`, `${receivers[0]}\nexport {};\n`);
    writeFileSync(`${DIR}/tsconfig.json`, JSON.stringify({ extends: '../../tsconfig.json', compilerOptions: { noEmit: true, rootDir: '../../../..' }, include: ['*.ts'] }));

    const compiled = await run(process.execPath, [TSC, '-p', `${DIR}/tsconfig.json`]).then(() => '', (e: { stdout: string }) => e.stdout);
    expect(compiled).toBe('');

    const { stdout } = await run(process.execPath, ['--import', 'tsx', `${DIR}/examples.ts`], {
      env: { ...process.env, ERRAND_API_KEY: daemon.key, ERRAND_API_URL: daemon.url, LAST_EVENT_ID: '0' },
    });
    expect(stdout).toContain("{ ok: true } high");
    expect(stdout).toMatch(/^queued -> running$/m);
    expect(stdout).toMatch(/^resume from \d+$/m);
    expect(stdout).toMatch(/^saved prices.csv 23$/m);
    expect(stdout).toMatch(/^resource_missing 404 req_[0-9a-z]{26}$/m);
  });
});
