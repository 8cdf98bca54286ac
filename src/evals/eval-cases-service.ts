import { isoTime } from '../clock.js';
import { ConflictError, InvalidRequestError, NotFoundError } from '../errors.js';
import type { JobsService } from '../jobs/jobs-service.js';
import { pageQuery, toListResponse, type ListResponse } from '../pagination.js';
import type { Resources } from '../resources.js';
import type { UserSchemas } from '../runs/user-schemas.js';
import { caseLabel, toEvalCase } from './eval-record.js';
import { MAX_CASES, type EvalCase, type EvalCaseInput, type EvalCaseListQuery } from './eval-schemas.js';
import { checkExpectation } from './expectation-check.js';

/**
 * The cases a job keeps (GET, POST /v1/jobs/{id}/eval_cases; GET, DELETE /v1/eval_cases/{id}): what an eval runs
 * when it is given none. A convenience beside the inline cases a CI keeps in its own repository.
 */
export class EvalCasesService {
  constructor(
    private readonly r: Pick<Resources, 'store' | 'clock' | 'ids'>,
    private readonly deps: { jobs: JobsService; schemas: UserSchemas },
  ) {}

  list(orgId: string, jobId: string, q: EvalCaseListQuery): ListResponse<EvalCase> {
    this.deps.jobs.row(orgId, jobId);
    return toListResponse(this.r.store.evals.listCases(jobId, pageQuery(q)), toEvalCase);
  }

  /** Keeps a case; its label must be the job's only one of that name (or, without one, those inputs). */
  async create(orgId: string, jobId: string, body: EvalCaseInput): Promise<EvalCase> {
    this.deps.jobs.row(orgId, jobId);
    await checkExpectation(this.deps.schemas, body.expect, 'expect');
    const inputs = body.inputs ?? {};
    return this.r.store.transaction(() => {
      const kept = this.r.store.evals.casesInOrder(jobId, MAX_CASES);
      if (kept.length >= MAX_CASES) throw new InvalidRequestError('too_many_eval_cases', `Job '${jobId}' keeps ${MAX_CASES} eval cases already, the most it may`);
      const label = caseLabel(body.name ?? null, inputs);
      const same = kept.find((c) => caseLabel(c.name, JSON.parse(c.inputs) as Record<string, unknown>) === label);
      if (same !== undefined) {
        const param = body.name === undefined ? 'inputs' : 'name';
        throw new ConflictError('eval_case_exists', `Job '${jobId}' keeps a case with this ${param === 'name' ? 'name' : 'inputs and no name'} already: ${same.id}`, { param });
      }
      const row = {
        id: this.r.ids('evc'),
        org_id: orgId,
        job_id: jobId,
        name: body.name ?? null,
        inputs: JSON.stringify(inputs),
        expect: JSON.stringify(body.expect),
        created_at: isoTime(this.r.clock.now()),
      };
      this.r.store.evals.insertCase(row);
      return toEvalCase(row);
    });
  }

  get(orgId: string, id: string): EvalCase {
    const row = this.r.store.evals.getCase(orgId, id);
    if (row === undefined) throw new NotFoundError('eval case', id);
    return toEvalCase(row);
  }

  /** Evals made before keep their copy of the case. */
  delete(orgId: string, id: string): { id: string; object: 'eval_case'; deleted: true } {
    if (!this.r.store.evals.deleteCase(orgId, id)) throw new NotFoundError('eval case', id);
    return { id, object: 'eval_case', deleted: true };
  }
}
