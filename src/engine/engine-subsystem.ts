import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { ToolSource } from '../agent-tools/agent-tool.js';
import type { ArtifactsService } from '../artifacts/artifacts-service.js';
import type { RunFilesService } from '../run-files/run-files-service.js';
import type { SpendCaps } from '../billing/caps.js';
import type { PriceTable } from '../billing/prices.js';
import type { RunConnections } from '../connections/run-connections.js';
import type { EventAnnouncer } from '../event-log/event-announcer.js';
import type { JobsService } from '../jobs/jobs-service.js';
import { sandboxLabelCheck } from '../sandbox/sandbox-label.js';
import type { LiveRuns } from '../live/live-runs.js';
import { packageVersion } from '../package-root.js';
import type { ProjectsService } from '../projects/projects-service.js';
import type { Resources } from '../resources.js';
import { runEndEvents } from '../runs/run-end-events.js';
import { RunsService } from '../runs/runs-service.js';
import type { UserSchemas } from '../runs/user-schemas.js';
import type { SandboxDriver } from '../sandbox/driver.js';
import type { MailStatus } from '../mail/mail-status.js';
import { StatusService } from '../status/status-service.js';
import { StepsService } from '../steps/steps-service.js';
import type { Subsystem } from '../subsystem.js';
import { Dispatcher } from './dispatcher.js';
import { RunnersByMode } from './attempt-runner.js';
import type { OrgModes } from '../orgs/org-modes.js';
import { TestModeRunner } from '../test-mode/test-mode-runner.js';
import { placeholderScreenshot } from '../test-mode/placeholder-page.js';
import { FirstCallBound } from './first-call-bound.js';
import { createProvider } from './providers/create-provider.js';
import { modelProviderProblem, runProblems } from '../runs/run-problems.js';
import { RunExecutor } from './run-executor.js';
import { SandboxMeters } from './sandbox-meter.js';
import { ToolRegistry } from './tools/registry.js';
import { HumanRequests } from '../human/human-requests.js';
import { RecipesService } from '../recipes/recipes-service.js';
import type { HumanNotifier } from '../human/human-notifier.js';
import { requestHumanTool } from '../human/request-human-tool.js';
import type { LiveUrlOf } from '../human/waiting-for.js';
import type { FilesService } from '../files/files-service.js';
import { RunInputFiles } from '../files/run-input-files.js';
import { inputFilesParticipant } from '../files/input-files-participant.js';
import { liveParticipant } from '../live/live-participant.js';
import { recipeParticipant } from '../recipes/recipe-participant.js';
import { recordingParticipant } from '../recording/recording-participant.js';
import { proxyParticipant } from '../run-proxy/proxy-participant.js';
import { runFilesParticipant } from '../run-files/run-files-participant.js';

export interface EngineSubsystemDeps {
  resources: Resources;
  /** Where model API keys come from (ANTHROPIC_API_KEY, OPENAI_API_KEY). */
  env: NodeJS.ProcessEnv;
  projects: ProjectsService;
  jobs: JobsService;
  schemas: UserSchemas;
  caps: SpendCaps;
  prices: PriceTable;
  announcer: EventAnnouncer;
  artifacts: ArtifactsService;
  /** A run's files, for its envelope. */
  runFiles: RunFilesService;
  /** Gets a run's webhook, in the unit of work that ends the run. */
  publicUrl: () => string;
  checkCallbackUrl: (url: string, param: string) => Promise<void>;
  /** Tools some runs get besides the standard ones (their connections' MCP tools, their mailbox). */
  toolSources: readonly ToolSource[];
  connections: RunConnections;
  driver: SandboxDriver;
  /** How the daemon does email, for GET /v1/status. */
  mailStatus: () => MailStatus;
  /** How a person the agent asks for is reached by email. */
  human: { notifier: HumanNotifier };
  /** Running attempts as the live view reaches them (filled by the executor). */
  live: LiveRuns;
  /** A running run's live link: GET /v1/runs/{id}, and what a person the agent asks for is shown. */
  liveUrlOf: LiveUrlOf;
  /** Uploaded files, which runs take as input files (issue 23). */
  files: FilesService;
  /** Which organisations are test-mode twins, whose runs the test-mode runner carries out (issue 25). */
  orgModes: OrgModes;
}

export interface EngineServices {
  runs: RunsService;
  steps: StepsService;
  status: StatusService;
  /** The agent's requests for a person and their answers (request_human, POST /v1/runs/{id}/human). */
  human: HumanRequests;
  /** Why runs cannot call a model (the missing setting), or null when they can. */
  modelProviderProblem: string | null;
  /** Jobs' recipes (replay, issue 24): GET and DELETE /v1/jobs/{id}/recipe. */
  recipes: RecipesService;
}

/** Runs (admission, the one way their status changes, their steps) and the engine that claims and executes them. */
export function engineSubsystem(deps: EngineSubsystemDeps): Subsystem<EngineServices> {
  const { resources, projects, jobs, schemas, caps, prices, announcer, artifacts, driver } = deps;
  const { config, clock, logger } = resources;
  const meters = new SandboxMeters(clock);
  const provider = createProvider({ config, env: deps.env });
  const runs: RunsService = new RunsService(
    resources,
    { projects, jobs, schemas, caps, prices, announcer },
    {
      publicUrl: deps.publicUrl,
      linkScreenshot: (id) => artifacts.signedUrl(id),
      checkCallbackUrl: deps.checkCallbackUrl,
      settleUsage: (runId) => meters.settle(runId),
      startCost: (model, prompt, outputSchema) => firstCall.startCost(model, prompt, outputSchema),
      // A test-mode run calls no model: a missing provider is no problem of it.
      runProblems: (run) => runProblems(deps.orgModes.livemode(run.orgId) ? provider : null, deps.connections, run),
      liveUrlOf: deps.liveUrlOf,
      filesOf: (row) => deps.runFiles.filesOf(row),
      checkSandboxLabel: sandboxLabelCheck(driver),
    },
  );
  const human = new HumanRequests(resources, { runs, announcer, publicUrl: deps.publicUrl, liveUrlOf: deps.liveUrlOf, notifier: deps.human.notifier });
  runs.addTransitionHook(human.endHook);
  const tools = new ToolRegistry({
    codeTimeoutS: config['sandbox.code_timeout_s'],
    schemas,
    extraSources: deps.toolSources,
    everyRunTools: [requestHumanTool(human)],
    submissionHold: (run) => run.require_approval === 1 && !human.hasApproval(run),
  });
  // Read by admission (startCost) only once the daemon takes requests.
  const firstCall = new FirstCallBound({ tools: tools.everyRun, config, prices, clock });
  // A run's end, with its final envelope, is announced in the unit of work of its terminal transition.
  runs.addTransitionHook(runEndEvents(announcer, (row) => runs.envelope(row)));
  const steps = new StepsService(resources, (id) => artifacts.signedUrl(id));

  const stepEvents = { announcer, linkScreenshot: (id: string) => artifacts.signedUrl(id) };
  const recipes = new RecipesService(resources, jobs);
  const participants = [
    proxyParticipant,
    runFilesParticipant({ artifacts, config }),
    inputFilesParticipant(new RunInputFiles({ store: resources.store, files: deps.files })),
    recordingParticipant({ artifacts, clock, enabled: config['recording.enabled'] }),
    liveParticipant(deps.live),
    recipeParticipant(resources, { recipes, schemas }),
  ];
  const executor = new RunExecutor(resources, { runs, provider, driver, artifacts, caps, prices, tools, meters, stepEvents, connections: deps.connections, participants });
  const testRunner = new TestModeRunner(resources, {
    runs,
    artifacts,
    prices,
    stepEvents,
    human,
    schemas,
    connections: deps.connections,
    screenshot: placeholderScreenshot(),
  });
  const runners = new RunnersByMode(deps.orgModes, executor, testRunner);
  const dispatcher = new Dispatcher(resources, { runs, executor: runners, placement: driver.placement }, { instanceId: `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}` });
  const status = new StatusService(resources, { provider, driver, version: packageVersion(), mail: deps.mailStatus });

  const unusable = provider.unusableReason();
  return {
    name: 'engine',
    services: { runs, steps, status, human, recipes, modelProviderProblem: modelProviderProblem(provider) },
    async start() {
      if (unusable !== null) logger.warn({ provider: provider.name }, `no usable model provider: ${unusable}; runs will fail until it is set`);
      await dispatcher.start();
    },
    close: () => dispatcher.close(),
  };
}
