import { isoTime } from '../clock.js';
import { ResourceMissingError } from '../errors.js';
import type { JobsService } from '../jobs/jobs-service.js';
import type { Resources } from '../resources.js';
import type { RecipeRow } from '../store/recipes-store.js';
import type { Recipe } from './recipe.js';

/** GET /v1/jobs/{id}/recipe: the job's newest recipe version. */
export interface JobRecipe extends Recipe {
  object: 'recipe';
  job_id: string;
  version: number;
  source_run_id: string;
  created_at: string;
}

export interface RecipeDeleted {
  job_id: string;
  object: 'recipe';
  deleted: true;
  versions: number;
}

/** Jobs' recipes: the newest version to replay or show, a new version from a run that succeeded, deletion. */
export class RecipesService {
  constructor(
    private readonly r: Pick<Resources, 'store' | 'clock' | 'ids'>,
    private readonly jobs: JobsService,
  ) {}

  /** The job's recipe; 404 for another organisation's job, and for a job with none yet. */
  get(orgId: string, jobId: string): JobRecipe {
    this.jobs.row(orgId, jobId);
    const row = this.r.store.recipes.latest(jobId);
    if (row === undefined) throw noRecipe(jobId);
    return toJobRecipe(row);
  }

  /** Every version goes: the job's next run is the agent's, and, if it succeeds, records version 1 again. */
  delete(orgId: string, jobId: string): RecipeDeleted {
    this.jobs.row(orgId, jobId);
    const versions = this.r.store.recipes.deleteAll(jobId);
    if (versions === 0) throw noRecipe(jobId);
    return { job_id: jobId, object: 'recipe', deleted: true, versions };
  }

  /** The recipe a replay of a run's job uses (the run's own job, so of its organisation), with its version, or null. */
  latest(jobId: string): { recipe: Recipe; version: number } | null {
    const row = this.r.store.recipes.latest(jobId);
    return row === undefined ? null : { recipe: JSON.parse(row.recipe) as Recipe, version: row.version };
  }

  /** Keeps `recipe` as the job's next version; answers the version. A job deleted meanwhile keeps nothing. */
  record(orgId: string, jobId: string, runId: string, recipe: Recipe): number | null {
    return this.r.store.transaction(() => {
      if (this.r.store.jobs.get(orgId, jobId) === undefined) return null;
      return this.r.store.recipes.addVersion({
        id: this.r.ids('rcp'),
        org_id: orgId,
        job_id: jobId,
        source_run_id: runId,
        recipe: JSON.stringify(recipe),
        created_at: isoTime(this.r.clock.now()),
      }).version;
    });
  }
}

function toJobRecipe(row: RecipeRow): JobRecipe {
  const recipe = JSON.parse(row.recipe) as Recipe;
  return { object: 'recipe', job_id: row.job_id, version: row.version, source_run_id: row.source_run_id, created_at: row.created_at, ...recipe };
}

/** What a job without a recipe is told: why it has none yet, and what makes one. */
function noRecipe(jobId: string): ResourceMissingError {
  return new ResourceMissingError(`Job '${jobId}' has no recipe yet: a run of it that succeeds (a valid result, confidence not low) records one`);
}
