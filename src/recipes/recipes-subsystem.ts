import type { AttemptParticipant } from '../attempt/attempt-participant.js';
import type { JobsService } from '../jobs/jobs-service.js';
import type { Resources } from '../resources.js';
import type { UserSchemas } from '../runs/user-schemas.js';
import type { Subsystem } from '../subsystem.js';
import { recipeParticipant } from './recipe-participant.js';
import { RecipesService } from './recipes-service.js';

/** Jobs' recipes: their versions (GET and DELETE /v1/jobs/{id}/recipe), and their part in attempts (replay, recording). */
export function recipesSubsystem(deps: { resources: Resources; jobs: JobsService; schemas: UserSchemas }): Subsystem<{ recipes: RecipesService; participant: AttemptParticipant }> {
  const recipes = new RecipesService(deps.resources, deps.jobs);
  return { name: 'recipes', services: { recipes, participant: recipeParticipant(deps.resources, { recipes, schemas: deps.schemas }) } };
}
