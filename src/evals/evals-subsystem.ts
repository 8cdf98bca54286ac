import { LinkSigner } from '../artifacts/link-signer.js';
import type { EventAnnouncer } from '../event-log/event-announcer.js';
import type { JobsService } from '../jobs/jobs-service.js';
import type { KeysService } from '../keys/keys-service.js';
import type { Resources } from '../resources.js';
import type { RunsService } from '../runs/runs-service.js';
import type { UserSchemas } from '../runs/user-schemas.js';
import type { Subsystem } from '../subsystem.js';
import { EvalCasesService } from './eval-cases-service.js';
import { EvalReportPage } from './eval-report.js';
import { EvalRunner } from './eval-runner.js';
import { EVAL_REPORT_LINK_PURPOSE, EvalsService } from './evals-service.js';

export interface EvalsSubsystemDeps {
  resources: Resources;
  jobs: JobsService;
  runs: RunsService;
  keys: Pick<KeysService, 'principalById'>;
  schemas: UserSchemas;
  announcer: EventAnnouncer;
  masterKey: Buffer;
  publicUrl: () => string;
  checkCallbackUrl: (url: string, param: string) => Promise<void>;
  checkSandboxLabel: (label: string) => void;
}

/**
 * Evaluations of jobs (docs/api.md, Evaluations): the cases jobs keep, evals and their reports, and the runner that
 * makes each case's run and grades it. It starts after the engine (its runs need one) and closes before it.
 */
export function evalsSubsystem(deps: EvalsSubsystemDeps): Subsystem<{ evalCases: EvalCasesService; evals: EvalsService }> {
  const { resources, jobs, runs, schemas } = deps;
  const evalCases = new EvalCasesService(resources, { jobs, schemas });
  const evals = new EvalsService(resources, {
    jobs,
    schemas,
    announcer: deps.announcer,
    signer: new LinkSigner(deps.masterKey, { purpose: EVAL_REPORT_LINK_PURPOSE }),
    publicUrl: deps.publicUrl,
    checkCallbackUrl: deps.checkCallbackUrl,
    checkSandboxLabel: deps.checkSandboxLabel,
    cancelRun: (orgId, runId) => {
      try {
        runs.cancel(orgId, runId);
      } catch (err) {
        // A run that ended meanwhile is graded as it ended.
        resources.logger.debug({ err, runId }, 'an eval run could not be cancelled');
      }
    },
    report: new EvalReportPage(),
  });
  const runner = new EvalRunner(resources, { runs, principalById: (keyId) => deps.keys.principalById(keyId), evals, schemas });
  evals.onCreated(() => runner.wake());
  return { name: 'evals', services: { evalCases, evals }, start: () => runner.start(), close: () => runner.close() };
}
