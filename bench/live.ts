/**
 * The live parts of a run (issue 22): what recording costs a run.
 *   npm run build && node --import tsx bench/live.ts [recordingPairs=5] [modelDelayMs=1500]
 *
 * Recording's cost is measured twice: with a model that answers at once (its whole cost shows), and with one that
 * takes `modelDelayMs` per turn, about what a hosted model takes for a browser step.
 */
import { recordingCost } from './live/recording-cost.js';

const recordingPairs = Number(process.argv[2] ?? 5);
const modelDelayMs = Number(process.argv[3] ?? 1500);

await recordingCost(recordingPairs, 0);
if (modelDelayMs > 0) await recordingCost(recordingPairs, modelDelayMs);
