import { recipeRouteSchemas as s } from '../../src/recipes/recipe-schemas.js';
import type { RecipesService } from '../../src/recipes/recipes-service.js';
import { principalOf } from '../plugins/auth.js';
import type { RoutePlugin } from './route-plugin.js';

const tags = ['Jobs'];

/** A job's recipe (replay, issue 24): what its runs replay without the model. */
export const recipeRoutes: RoutePlugin<{ recipes: RecipesService }> = async (app, { recipes }) => {
  app.get('/jobs/:id/recipe', { schema: { ...s.get, tags, summary: "Get a job's recipe (its newest version)" } }, (req) =>
    recipes.get(principalOf(req).orgId, req.params.id),
  );
  app.delete('/jobs/:id/recipe', { schema: { ...s.delete, tags, summary: "Delete a job's recipe (every version)" } }, (req) =>
    recipes.delete(principalOf(req).orgId, req.params.id),
  );
};
