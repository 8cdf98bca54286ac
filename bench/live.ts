/**
 * The live parts of a run (issue 22): what recording costs a run.
 *   npm run build && node --import tsx bench/live.ts [recordingPairs=5]
 */
import { recordingCost } from './live/recording-cost.js';

const recordingPairs = Number(process.argv[2] ?? 5);

await recordingCost(recordingPairs);
