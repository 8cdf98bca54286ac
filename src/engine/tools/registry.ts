import { SecretMask } from '../../connections/secret-mask.js';
import type { UserSchemas } from '../../runs/user-schemas.js';
import { SandboxError } from '../../sandbox/sandbox-error.js';
import type { RunRow } from '../../store/runs-table.js';
import type { ToolUseBlock } from '../providers/provider.js';
import type { ToolSpec } from '../../agent-tools/tool-content.js';
import { truncateEnd } from '../../agent-tools/truncate.js';
import { fixedTools, toolError, type AgentTool, type ToolContext, type ToolOutcome, type ToolSet, type ToolSource } from '../../agent-tools/agent-tool.js';
import { browserTool, createBrowserTool, type SubmissionHold } from './browser-tool.js';
import { codeTool } from './code-tool.js';
import { ComputerDisplay } from './computer-display.js';
import { computerTools } from './computer-tool.js';
import { DEFAULT_COMPUTER_DISPLAY, type ComputerDisplaySize } from '../../vocabulary/action-spaces.js';
import { createFinishTool, finishTools } from './finish-tool.js';

export interface ToolRegistryOptions {
  /** `sandbox.code_timeout_s`. */
  codeTimeoutS: number;
  schemas: UserSchemas;
  /** Sources wired by the daemon that need its services (connections, mail, request_human). */
  extraSources?: readonly ToolSource[];
  /**
   * Tools every run has that need the daemon's services (request_human): listed after the sources, and counted in
   * what admission bounds a first model call with, as the standard ones are.
   */
  everyRunTools?: readonly AgentTool[];
  /** Whether the browser must refuse to submit a form for the run now (require_approval, not yet approved). */
  submissionHold?: SubmissionHold;
  /** The screen a run in the computer action space shows its model (`computer.display`). */
  computerDisplay?: ComputerDisplaySize;
}

/**
 * Every tool the agent may call, by source. To add a tool: write `tools/<name>-tool.ts` exporting an `AgentTool`
 * (spec, summary, parse, execute) and list it here, or, when it needs the daemon's services, hand the daemon a
 * `ToolSource` for `extraSources`. The agent loop knows no tool by name.
 */
export class ToolRegistry {
  /** After the page's tools, which the run's action space chooses. */
  private readonly sources: readonly ToolSource[];
  /** The browser tool and the code tool: the dom action space. */
  private readonly domTools: ToolSource;
  /** The model's computer-use tool, navigate and the code tool: the computer action space. */
  private readonly computerTools: ToolSource;
  /** The tools every run has, whatever its connections: what admission bounds a first model call with. */
  readonly everyRun: { specs: ToolSpec[]; summaries: string[] };

  constructor(options: ToolRegistryOptions) {
    const hold = options.submissionHold ?? (() => false);
    const code = codeTool(options.codeTimeoutS);
    const standard = [options.submissionHold === undefined ? browserTool : createBrowserTool(options.submissionHold), code];
    this.domTools = fixedTools(...standard);
    const computer = computerTools({ display: new ComputerDisplay(options.computerDisplay ?? DEFAULT_COMPUTER_DISPLAY), hold });
    this.computerTools = {
      open: async (run, signal) => {
        const set = await computer.open(run, signal);
        return { tools: [...set.tools, code], close: () => set.close() };
      },
    };
    this.sources = [
      ...(options.extraSources ?? []),
      fixedTools(...(options.everyRunTools ?? [])),
      // Last, so that finishing is the last thing the system prompt lists.
      finishTools(options.schemas),
    ];
    // The finish tool's spec is the same whatever the run's output schema. The dom action space's browser tool
    // describes itself at greater length than the computer tool (whose API's definition is the API's own), so its
    // specs bound both.
    const everyRun = new AttemptTools([
      { tools: [...standard, ...(options.everyRunTools ?? []), createFinishTool({ outputSchema: null, schemas: options.schemas })], close: async () => undefined },
    ]);
    this.everyRun = { specs: everyRun.specs, summaries: everyRun.summaries };
  }

  /**
   * The tools of one attempt; close them when the attempt ends. A name taken twice keeps its first tool. What the
   * tools answer passes `mask` before the model reads it.
   */
  async open(run: RunRow, signal: AbortSignal, mask: SecretMask = SecretMask.none): Promise<AttemptTools> {
    const sets: ToolSet[] = [];
    const page = run.action_space === 'computer' ? this.computerTools : this.domTools;
    try {
      for (const source of [page, ...this.sources]) sets.push(await source.open(run, signal));
    } catch (err) {
      await Promise.allSettled(sets.map((s) => s.close()));
      throw err;
    }
    return new AttemptTools(sets, mask);
  }
}

/** The tools one attempt may call, and the dispatch of the model's calls to them. */
export class AttemptTools {
  private readonly byName = new Map<string, AgentTool>();

  constructor(
    private readonly sets: readonly ToolSet[],
    private readonly mask: SecretMask = SecretMask.none,
  ) {
    for (const set of sets) for (const tool of set.tools) if (!this.byName.has(tool.spec.name)) this.byName.set(tool.spec.name, tool);
  }

  get specs(): ToolSpec[] {
    return [...this.byName.values()].map((t) => t.spec);
  }

  get summaries(): string[] {
    return [...this.byName.values()].map((t) => t.summary);
  }

  /**
   * Runs one tool call, and masks the run's secrets in what the model will read: the one place tool output goes
   * into messages, whichever tool made it (page text, program output, MCP results, error messages).
   */
  async call(use: ToolUseBlock, ctx: ToolContext): Promise<ToolOutcome> {
    const outcome = await this.dispatch(use, ctx);
    if (this.mask.isEmpty || outcome.kind === 'finished') return outcome;
    return { ...outcome, content: outcome.content.map((block) => (block.type === 'text' ? { ...block, text: this.mask.text(block.text) } : block)) };
  }

  /**
   * Arguments that are not a JSON object, an unknown tool, input the tool refuses, and a sandbox that refused the
   * action are the model's to correct; a sandbox that stopped answering is not, and is thrown to the executor.
   */
  private async dispatch(use: ToolUseBlock, ctx: ToolContext): Promise<ToolOutcome> {
    if (use.unparsedInput !== undefined) {
      const message = `the arguments of ${use.name} were not a JSON object: ${truncateEnd(use.unparsedInput, 500)}`;
      return toolError(ctx, use.name, { unparsed: truncateEnd(use.unparsedInput, 2_000) }, message);
    }
    const tool = this.byName.get(use.name);
    if (tool === undefined) {
      return toolError(ctx, use.name, use.input, `unknown tool ${JSON.stringify(use.name)}; the tools are ${listNames([...this.byName.keys()])}`);
    }
    const input = tool.parse(use.input);
    if (typeof input === 'string') return toolError(ctx, use.name, use.input, input);
    try {
      return await tool.execute(input, ctx, use);
    } catch (err) {
      if (!(err instanceof SandboxError) || err.code === 'unreachable' || err.code === 'destroyed') throw err;
      return toolError(ctx, use.name, use.input, `${use.name} failed: ${err.message}`);
    }
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.sets.map((s) => s.close()));
  }
}

function listNames(names: string[]): string {
  return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}
