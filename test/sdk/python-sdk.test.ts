/**
 * The Python SDK's tests (sdk/python/tests, pytest) as part of `npm test`: the scenarios of sdk/scenarios.md against
 * a real daemon (test/fixtures/sdk-daemon.ts), its unit tests, and its wheel build. They need a Python >= 3.11 that
 * imports httpx, pytest and pytest-asyncio (Debian's python3-httpx, python3-pytest, python3-pytest-asyncio, which
 * .ci/run installs): /usr/bin/python3 first, since a `python3` on PATH may be another interpreter (pyenv) without
 * them, or the one ERRAND_PYTHON names. Without one the test is skipped with a notice, except under CI=true, where
 * that is a failure.
 */
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';

const REQUIRED_MODULES = ['httpx', 'pytest', 'pytest_asyncio', 'setuptools', 'wheel'];
const PROBE = `import sys; assert sys.version_info >= (3, 11), sys.version; import ${REQUIRED_MODULES.join(', ')}`;

async function findPython(): Promise<{ python: string | null; tried: string[] }> {
  const candidates = [process.env.ERRAND_PYTHON, '/usr/bin/python3', 'python3'].filter((c): c is string => c !== undefined && c !== '');
  const tried: string[] = [];
  for (const candidate of candidates) {
    const probe = await execa(candidate, ['-c', PROBE], { reject: false });
    if (probe.exitCode === 0) return { python: candidate, tried };
    const why = String(probe.stderr || probe.message || `exit ${String(probe.exitCode)}`).trim().split('\n');
    tried.push(`${candidate}: ${why[why.length - 1] ?? ''}`);
  }
  return { python: null, tried };
}

const { python, tried } = await findPython();
if (python === null) {
  const reason = `no Python >= 3.11 with ${REQUIRED_MODULES.join(', ')} (apt-get install python3-httpx python3-pytest python3-pytest-asyncio python3-setuptools python3-wheel); tried ${tried.join('; ')}`;
  if (process.env.CI === 'true') throw new Error(`CI=true but the Python SDK's tests cannot run: ${reason}`);
  console.warn(`[Python SDK tests skipped] ${reason}`);
}

describe.skipIf(python === null)('the Python SDK (sdk/python)', () => {
  it('passes its pytest suite: every scenario of sdk/scenarios.md against a real daemon, its unit tests and its wheel', async () => {
    const run = await execa(python!, ['-m', 'pytest', 'sdk/python/tests', '-q', '-p', 'no:cacheprovider', '-rfE'], {
      reject: false,
      all: true,
      env: { PYTHONDONTWRITEBYTECODE: '1' },
    });
    expect(run.exitCode, `pytest failed:\n${run.all}`).toBe(0);
  }, 900_000);
});
