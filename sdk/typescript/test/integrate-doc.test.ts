/**
 * docs/integrate.md's TypeScript examples are what callers copy first: they must compile against the SDK's types
 * and run, in order, against a real daemon, in a new project made as the guide says (`npm init -y`, which writes
 * "type": "commonjs", then its `npm pkg set` lines, and the SDK installed from the package `npm pack` makes). The
 * webhook receiver (it listens for ever) is compiled only; S07 runs the same verification against a real delivery.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSdkDaemon, type SdkDaemon } from './sdk-daemon.js';

const DOC = fileURLToPath(new URL('../../../docs/integrate.md', import.meta.url));
const SDK_ENTRY = fileURLToPath(new URL('../src/index.js', import.meta.url));
const TSC = fileURLToPath(new URL('../../../node_modules/typescript/bin/tsc', import.meta.url));
const TSX = fileURLToPath(new URL('../../../node_modules/tsx/dist/cli.mjs', import.meta.url));
const SDK_DIR = fileURLToPath(new URL('../', import.meta.url));
const DIR = fileURLToPath(new URL(`./.doc-examples-${process.pid}/`, import.meta.url));
const run = promisify(execFile);

function typescriptSection(): string {
  const doc = readFileSync(DOC, 'utf8');
  return doc.slice(doc.indexOf('\n## TypeScript\n'), doc.indexOf('\n## ', doc.indexOf('\n## TypeScript\n') + 1));
}

/** The examples as written (`from '@errand/sdk'`). */
function typescriptBlocks(): string[] {
  return [...typescriptSection().matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
}

/** The guide's `npm pkg set ...` lines: what it says to change in a project `npm init -y` made. */
function packageSettings(): string[][] {
  const setup = /```sh\n([\s\S]*?)```/.exec(typescriptSection())![1]!;
  return setup
    .split('\n')
    .map((line) => line.replace(/#.*$/, '').trim())
    .filter((line) => line.startsWith('npm pkg set '))
    .map((line) => line.split(/\s+/).slice(1));
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
    const againstSource = (code: string) => code.replaceAll("'@errand/sdk'", JSON.stringify(SDK_ENTRY));
    writeFileSync(`${DIR}/examples.ts`, `${againstSource(runnable.join('\n'))}\nexport {};\n`);
    writeFileSync(`${DIR}/receiver.ts`, `${againstSource(receivers[0]!)}\nexport {};\n`);
    writeFileSync(`${DIR}/tsconfig.json`, JSON.stringify({ extends: '../../tsconfig.json', compilerOptions: { noEmit: true, rootDir: '../../../..' }, include: ['*.ts'] }));

    const compiled = await run(process.execPath, [TSC, '-p', `${DIR}/tsconfig.json`]).then(() => '', (e: { stdout: string }) => e.stdout);
    expect(compiled).toBe('');

    // A new project, as the guide makes one; npm works offline here: the SDK comes from the package it packs.
    const npmEnv = { ...process.env, npm_config_cache: `${DIR}/npm-cache`, npm_config_offline: 'true', npm_config_update_notifier: 'false', npm_config_audit: 'false', npm_config_fund: 'false' };
    const project = `${DIR}/my-app`;
    const sdk = `${DIR}/sdk`;
    mkdirSync(project);
    mkdirSync(sdk);
    // Built and packed apart from the checkout, whose dist/ stays as it was.
    await run(process.execPath, [TSC, '-p', `${SDK_DIR}/tsconfig.json`, '--outDir', `${sdk}/dist`]);
    for (const file of ['package.json', 'README.md']) writeFileSync(`${sdk}/${file}`, readFileSync(`${SDK_DIR}/${file}`));
    await run('npm', ['pack', '--pack-destination', DIR], { cwd: sdk, env: npmEnv });
    const tarball = readdirSync(DIR).find((name) => name.endsWith('.tgz'))!;
    await run('npm', ['init', '-y'], { cwd: project, env: npmEnv });
    const settings = packageSettings();
    expect(settings).toContainEqual(['pkg', 'set', 'type=module']);
    for (const args of settings) await run('npm', args, { cwd: project, env: npmEnv });
    await run('npm', ['install', `${DIR}/${tarball}`], { cwd: project, env: npmEnv });
    writeFileSync(`${project}/example.ts`, runnable.join('\n'));

    const { stdout } = await run(process.execPath, [TSX, 'example.ts'], {
      cwd: project,
      env: { ...process.env, ERRAND_API_KEY: daemon.key, ERRAND_API_URL: daemon.url, LAST_EVENT_ID: '0' },
    });
    expect(stdout).toContain("{ ok: true } high");
    expect(stdout).toMatch(/^queued -> running$/m);
    expect(stdout).toMatch(/^resume from \d+$/m);
    expect(stdout).toMatch(/^saved prices.csv 23$/m);
    expect(stdout).toMatch(/^resource_missing 404 req_[0-9a-z]{26}$/m);
  }, 240_000);
});
