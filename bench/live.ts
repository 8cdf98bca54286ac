/**
 * The live parts of a run (issue 22):
 *   npm run build && node --import tsx bench/live.ts [changes=100] [runs=5] [recordingPairs=10] [modelDelayMs=1500] [image=errand-sandbox:latest]
 * - frame latency: a change on the sandbox page to the frame shown by a viewer's Chromium (local driver), p50, p99;
 * - first page: POST /v1/runs to the sandbox browser's first rendered page with a warm pool (docker driver; the
 *   local driver when no Docker engine or image is there, which it says), p50, with its parts;
 * - the same first page for runs that start with a saved login (a profile of 20 cookies and 20 stored values), loaded
 *   into the warm browser without a second launch: what a profile adds to a run's first page;
 * - what recording costs a run, measured twice: with a model that answers at once (its whole cost shows), and with
 *   one that takes `modelDelayMs` per turn, about what a hosted model takes for a browser step.
 */
import Docker from 'dockerode';
import { sandboxStatus } from '../src/sandbox/docker/sandbox-status.js';
import { measureFirstPage } from './live/first-page.js';
import { measureFrameLatency } from './live/frame-latency.js';
import { recordingCost } from './live/recording-cost.js';

const changes = Number(process.argv[2] ?? 100);
const runs = Number(process.argv[3] ?? 5);
const recordingPairs = Number(process.argv[4] ?? 10);
const modelDelayMs = Number(process.argv[5] ?? 1500);
const image = process.argv[6] ?? process.env.ERRAND_SANDBOX_IMAGE ?? 'errand-sandbox:latest';

async function main(): Promise<void> {
  const latency = await measureFrameLatency(changes);
  console.log(`frame latency (local driver, ${latency.changes} changes, ${latency.seen} seen): p50 ${latency.p50.toFixed(0)} ms, p99 ${latency.p99.toFixed(0)} ms (goal p50 < 150 ms)`);

  const status = await sandboxStatus({ docker: new Docker(), image });
  const docker = status.engine.reachable && status.image.present;
  if (!docker) console.log(`first page: no Docker engine or image ${image}; measured on the local driver, which has no warm pool`);
  const first = await measureFirstPage(runs, docker ? 'docker' : 'local', image);
  console.log(
    `first page (${first.driver}${first.driver === 'docker' ? ', warm pool' : ''}, ${first.runs} runs): POST -> first frame p50 ${first.p50.toFixed(0)} ms; ` +
      `POST -> run started p50 ${first.startP50.toFixed(0)} ms; navigate step (the load, and Chromium's launch where the pool did not start it) p50 ${first.navigateP50.toFixed(0)} ms (aim < 100 ms)`,
  );

  const withProfile = await measureFirstPage(runs, docker ? 'docker' : 'local', image, { profile: true });
  console.log(
    `first page with a profile (${withProfile.driver}${withProfile.driver === 'docker' ? ', warm pool' : ''}, ${withProfile.runs} runs): POST -> first frame p50 ${withProfile.p50.toFixed(0)} ms ` +
      `(${(withProfile.p50 - first.p50).toFixed(0)} ms more than without, x${(withProfile.p50 / first.p50).toFixed(2)}); POST -> run started p50 ${withProfile.startP50.toFixed(0)} ms; navigate step p50 ${withProfile.navigateP50.toFixed(0)} ms`,
  );

  await recordingCost(recordingPairs, 0);
  if (modelDelayMs > 0) await recordingCost(recordingPairs, modelDelayMs);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
