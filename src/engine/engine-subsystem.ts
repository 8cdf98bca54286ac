import type { ComputerDisplaySize } from '../vocabulary/action-spaces.js';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { AgentTool, ToolSource } from '../agent-tools/agent-tool.js';
import type { AttemptParticipant } from '../attempt/attempt-participant.js';
import type { ArtifactsService } from '../artifacts/artifacts-service.js';
import type { SpendCaps } from '../billing/caps.js';
import type { PriceTable } from '../billing/prices.js';
import type { RunConnections } from '../connections/run-connections.js';
import type { OrgModes } from '../orgs/org-modes.js';
import type { Resources } from '../resources.js';
import { runProblems } from '../runs/run-problems.js';
import type { RunsService } from '../runs/runs-service.js';
import type { UserSchemas } from '../runs/user-schemas.js';
import type { SandboxDriver } from '../sandbox/driver.js';
import type { StepEvents } from '../steps/run-recorder.js';
import type { RunRow } from '../store/runs-table.js';
import type { Subsystem } from '../subsystem.js';
import { RunnersByMode, type AttemptRunner } from './attempt-runner.js';
import { Dispatcher } from './dispatcher.js';
import { FirstCallBound } from './first-call-bound.js';
import { createProvider } from './providers/create-provider.js';
import type { ModelProvider } from './providers/provider.js';
import { modelProviderProblem } from '../runs/run-problems.js';
import { RunExecutor } from './run-executor.js';
import { SandboxMeters } from './sandbox-meter.js';
import { ToolRegistry } from './tools/registry.js';
import type { Waitpoints } from '../waitpoints/waitpoints.js';
import type { RunTracing } from '../tracing/run-tracing.js';

export interface EngineSubsystemDeps {
  resources: Resources;
  /** Where model API keys come from (ANTHROPIC_API_KEY, OPENAI_API_KEY). */
  env: NodeJS.ProcessEnv;
  runs: RunsService;
  schemas: UserSchemas;
  caps: SpendCaps;
  prices: PriceTable;
  artifacts: ArtifactsService;
  stepEvents: StepEvents;
  /** Tools some runs get besides the standard ones (their connections' MCP tools, their mailbox). */
  toolSources: readonly ToolSource[];
  /** Tools every run gets besides the standard ones (request_human), counted in what admission bounds. */
  everyRunTools: readonly AgentTool[];
  /** Whether the browser must refuse to submit a form for the run now (require_approval, not yet approved). */
  submissionHold: (run: RunRow) => boolean;
  connections: RunConnections;
  driver: SandboxDriver;
  /** What takes part in each attempt that has a sandbox, in order (docs/architecture.md, "Adding a participant"). */
  participants: readonly AttemptParticipant[];
  /** Which organisations are test-mode twins, whose runs go to `testRunner` rather than the executor (issue 25). */
  orgModes: OrgModes;
  testRunner: Pick<AttemptRunner, 'execute'>;
  /** What running runs wait for: the attempt's tools wait through it. */
  waitpoints: Waitpoints;
  /** Where attempts are traced (RunTracing.off without tracing). */
  tracing: RunTracing;
}

export interface EngineServices {
  /** The model provider runs call (GET /v1/status probes it). */
  provider: ModelProvider;
  /** Why runs cannot call a model (the missing setting), or null when they can. */
  modelProviderProblem: string | null;
}

/**
 * The engine: the dispatcher that claims queued runs, the executor that carries out their attempts (with the
 * model provider, the tools and the attempt's participants), and what admission asks of it, which it plugs into runs.
 */
export function engineSubsystem(deps: EngineSubsystemDeps): Subsystem<EngineServices> {
  const { resources, runs, schemas, caps, prices, driver } = deps;
  const { config, clock, logger } = resources;
  const meters = new SandboxMeters(clock);
  const provider = createProvider({ config, env: deps.env });
  const tools = new ToolRegistry({
    codeTimeoutS: config['sandbox.code_timeout_s'],
    schemas,
    extraSources: deps.toolSources,
    everyRunTools: deps.everyRunTools,
    submissionHold: deps.submissionHold,
    // The config loader checked it against COMPUTER_DISPLAYS.
    computerDisplay: config['computer.display'] as ComputerDisplaySize,
  });
  const firstCall = new FirstCallBound({ tools: tools.everyRun, config, prices, clock });
  runs.useEngine({
    startCost: (model, prompt, outputSchema) => firstCall.startCost(model, prompt, outputSchema),
    // A test-mode run calls no model: a missing provider is no problem of it.
    runProblems: (run) => runProblems(deps.orgModes.livemode(run.orgId) ? provider : null, deps.connections, run),
    settleUsage: (runId) => meters.settle(runId),
  });
  const executor = new RunExecutor(resources, { runs, provider, driver, artifacts: deps.artifacts, caps, prices, tools, meters, stepEvents: deps.stepEvents, connections: deps.connections, participants: deps.participants, waitpoints: deps.waitpoints, tracing: deps.tracing });
  const runners = new RunnersByMode(deps.orgModes, executor, deps.testRunner);
  const dispatcher = new Dispatcher(resources, { runs, executor: runners, placement: driver.placement }, { instanceId: `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}` });

  const unusable = provider.unusableReason();
  return {
    name: 'engine',
    services: { provider, modelProviderProblem: modelProviderProblem(provider) },
    async start() {
      if (unusable !== null) logger.warn({ provider: provider.name }, `no usable model provider: ${unusable}; runs will fail until it is set`);
      await dispatcher.start();
    },
    close: () => dispatcher.close(),
  };
}
