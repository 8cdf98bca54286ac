import type { Attempt, AttemptParticipant, AttemptStart, OutcomeChange } from '../attempt/attempt-participant.js';
import type { ToolContext } from '../agent-tools/agent-tool.js';
import type { Resources } from '../resources.js';
import type { RunOutcome, SucceededOutcome } from '../runs/run-outcome.js';
import type { UserSchemas } from '../runs/user-schemas.js';
import { fromJson } from '../store/json-columns.js';
import { ObservedSandbox } from './observed-sandbox.js';
import { buildRecipe } from './recipe-builder.js';
import { RecipeReplay } from './recipe-replay.js';
import type { RecipesService } from './recipes-service.js';

/**
 * Jobs' recipes (docs/api.md, Replay) in an attempt: what the run does in its sandbox is observed, a run that asks
 * for it replays its job's recipe before the agent (which starts where the replay stopped fitting, if it did), and a
 * job's run that succeeded by its agent records the job's next recipe version.
 */
export function recipeParticipant(r: Pick<Resources, 'store' | 'config'>, deps: { recipes: RecipesService; schemas: UserSchemas }): AttemptParticipant {
  return {
    name: 'recipe',
    async join(attempt) {
      if (attempt.run.job_id === null) return null;
      const observed = new ObservedSandbox(attempt.sandbox);
      return {
        joined: { sandbox: observed },
        begin: (context) => replay(attempt, context),
        settle: (outcome) => record(attempt, observed, outcome),
      };
    },
  };

  /**
   * A replay of the job's recipe, when the run asks for one (`replay: auto`) and its job has a recipe. A run that
   * needs a person's approval before it submits never replays: the agent asks for it.
   */
  async function replay(attempt: Attempt, context: ToolContext): Promise<AttemptStart | null> {
    const { run, logger } = attempt;
    if (run.replay !== 'auto' || run.job_id === null || run.require_approval === 1) return null;
    const latest = deps.recipes.latest(run.job_id);
    if (latest === null) return null;
    const recipeReplay = new RecipeReplay(latest.recipe, context, { codeTimeoutS: r.config['sandbox.code_timeout_s'], schemas: deps.schemas, version: latest.version, inputFiles: attempt.inputFiles });
    // The envelope says so while it runs; the move that ends the run writes the mode it ended in.
    r.store.runs.patch(run.id, 'running', { mode: 'replay' });
    const ended = await attempt.time('replay', () => recipeReplay.run());
    if (ended.kind === 'replayed') return { kind: 'finished', outcome: ended.outcome };
    logger.info({ at: ended.at, version: latest.version }, 'the replay diverged from its recipe; the agent takes over');
    r.store.runs.patch(run.id, 'running', { mode: 'replay_then_agent' });
    return { kind: 'handover', handover: ended.handover, mode: 'replay_then_agent' };
  }

  /**
   * A job's run that succeeded (valid result, confidence not low) by its agent becomes the job's next recipe
   * version. One that cannot be made into a recipe is said in a warning when the run asked for replay, and in the
   * log otherwise. An eval's run records none: an eval measures its job (perhaps with another prompt or model) and
   * leaves it as it was.
   */
  async function record(attempt: Attempt, observed: ObservedSandbox, outcome: RunOutcome): Promise<OutcomeChange | null> {
    const { run, logger } = attempt;
    if (run.job_id === null || run.source === 'eval' || outcome.status !== 'succeeded' || outcome.mode === 'replay' || outcome.confidence === 'low') return null;
    const usedBrowser = observed.observations.some((o) => o.kind === 'browser');
    // Read past the observer: the final page's text is the recipe's source, not a step of it.
    const finalPageText = usedBrowser ? await finalText(observed, attempt.signal) : null;
    const inputs = fromJson<Record<string, unknown>>(run.inputs) ?? {};
    const built = buildRecipe({ observations: observed.observations, inputs, inputFiles: attempt.inputFiles, result: (outcome as SucceededOutcome).result, finalPageText, mask: attempt.mask });
    if ('why' in built) {
      logger.info({ why: built.why }, 'no recipe recorded from this run');
      const warning = `replay: no recipe was recorded from this run: ${built.why}`;
      return run.replay === 'auto' ? (ended) => ({ ...ended, warnings: [...ended.warnings, warning] }) : null;
    }
    const version = deps.recipes.record(run.org_id, run.job_id, run.id, built.recipe);
    logger.info({ version }, 'recorded a recipe of the job');
    return null;
  }
}

async function finalText(observed: ObservedSandbox, signal: AbortSignal): Promise<string | null> {
  const read = await observed.unobserved.browser({ action: 'read_text' }, signal);
  return read.ok ? read.text : null;
}
