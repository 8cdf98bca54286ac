import type { Config } from '../config/schema.js';
import { InvalidRequestError } from '../errors.js';
import type { ActionSpace } from '../vocabulary/action-spaces.js';
import { COMPUTER_USE_MODELS, computerToolOf, MODEL_PROVIDERS, providerModelKey, type ComputerToolVersion, type ModelAlias, type ModelProviderName } from '../vocabulary/models.js';

/**
 * Whether a run's model can work in its action space as the daemon is configured (`models.provider` and the model id
 * behind the alias), from the one table of models with a computer-use tool (vocabulary/models.ts). Asked when a run,
 * a job or a job's run is made (400 action_space_unsupported) and again before an attempt starts, in case the
 * operator changed the model meanwhile.
 */

/** The configured provider's computer-use tool of the model behind `model`, or null when it has none. */
export function configuredComputerTool(config: Config, model: ModelAlias): ComputerToolVersion | null {
  return computerToolOf(config['models.provider'] as ModelProviderName, config[providerModelKey(model)]);
}

/** Why a run of `model` cannot work in `actionSpace`, or null when it can. */
export function actionSpaceProblem(config: Config, model: ModelAlias, actionSpace: ActionSpace): string | null {
  switch (actionSpace) {
    case 'dom':
      return null;
    case 'computer': {
      if (configuredComputerTool(config, model) !== null) return null;
      const provider = config['models.provider'];
      const key = providerModelKey(model);
      return (
        `action_space "computer" needs a model with its API's own computer-use tool, and the model ${model} is ${JSON.stringify(config[key])} ` +
        `on the ${provider} API (${key}, models.provider), which has none. Models with one: ${modelsWithComputerUse()}. ` +
        `Use action_space "dom", or a model alias the operator maps to one of those.`
      );
    }
    default: {
      const unknown: never = actionSpace;
      throw new Error(`unknown action space ${String(unknown)}`);
    }
  }
}

/** 400 action_space_unsupported when a run of `model` cannot work in `actionSpace`. */
export function checkActionSpace(config: Config, model: ModelAlias, actionSpace: ActionSpace): void {
  const problem = actionSpaceProblem(config, model, actionSpace);
  if (problem !== null) throw new InvalidRequestError('action_space_unsupported', problem, { param: 'action_space' });
}

/** "on anthropic: claude-opus-4-8, ...; on openai: gpt-5.5, ..." */
function modelsWithComputerUse(): string {
  return MODEL_PROVIDERS.map((provider) => `on ${provider}: ${COMPUTER_USE_MODELS.filter((e) => e.provider === provider).flatMap((e) => e.models).join(', ')}`).join('; ');
}
