import { Option, type Command } from 'commander';
import type { RunOptionsBody } from '../../../src/runs/run-options.js';
import { ACTION_SPACES, type ActionSpace } from '../../../src/vocabulary/action-spaces.js';
import { collect, integerFlag, positiveNumberFlag, readJsonObject } from '../../flag-parsers.js';
import { OUTPUT_SCHEMA_HELP } from '../../help.js';

/**
 * The flags of a run's options (src/runs/run-options.ts), mapped to their members in one place: for a run
 * (`runs create`, of a prompt or of a job) and for the defaults a job gives its runs (`jobs create`, `jobs update`).
 */
export interface RunOptionFlags {
  outputSchema?: string;
  connection?: string[];
  proxy?: string;
  sandboxLabel?: string;
  timeoutS?: number;
  maxCostUsd?: number;
  /** Set only by --recording or --no-recording: otherwise the job's choice, or the daemon's default. */
  recording?: boolean;
  humanEmail?: string;
  humanTimeoutS?: number;
  requireApproval?: boolean;
  profile?: string;
  profileMode?: 'read' | 'read_write';
  saveProfile?: string;
  actionSpace?: ActionSpace;
}

/** The options' members a body takes from the flags (the ones shared by a run and a job's defaults). */
export type RunOptionMembers = Pick<
  RunOptionsBody,
  'output_schema' | 'connections' | 'proxy' | 'sandbox_label' | 'timeout_s' | 'max_cost_usd' | 'recording' | 'human_email' | 'human_timeout_s' | 'require_approval' | 'profile' | 'profile_mode' | 'save_profile' | 'action_space'
>;

/** Adds the flags, worded for a run or for a job's runs. */
export function addRunOptionFlags(cmd: Command, target: 'run' | 'job'): Command {
  const say = (run: string, job: string) => (target === 'run' ? run : job);
  return cmd
    .option('--output-schema <json|@file>', OUTPUT_SCHEMA_HELP)
    .option('--connection <name>', say('a connection the run needs (repeatable)', 'a connection runs of this job need (repeatable)'), collect)
    .option('--proxy <name>', say("a proxy connection the run's browser and code leave through (overrides the job's)", "a proxy connection this job's runs leave through, unless a run names its own"))
    .option('--sandbox-label <label>', say("a label of the sandbox hosts the run must run on (overrides the job's)", "a label of the sandbox hosts this job's runs must run on, unless a run names its own"))
    .addOption(new Option('--timeout-s <seconds>', say('longest the run may execute', 'longest a run may execute')).argParser(integerFlag(1, 86_400)))
    .addOption(
      new Option(
        '--max-cost-usd <usd>',
        say(
          "the most the run may cost in USD: it stops (failed, budget_exceeded) before a model call that could pass it (overrides the job's and the key's)",
          "the most each run of this job may cost in USD, unless a run gives its own (overrides the key's default)",
        ),
      ).argParser(positiveNumberFlag),
    )
    .option('--recording', say("record the browser (a video and a trace), though the job's runs are not", "record the browser of this job's runs (the default)"))
    .option('--no-recording', say('do not record the browser', "do not record the browser of this job's runs, unless a run asks to"))
    .option('--human-email <address>', 'who is emailed when the agent asks for a person (a reply answers)')
    .addOption(new Option('--human-timeout-s <seconds>', 'longest the agent waits for a person it asked; then the run fails').argParser(integerFlag(1, 604_800)))
    .option('--require-approval', 'a form is submitted only after a person approved (the agent asks with request_human)')
    .option('--no-require-approval', say("forms may be submitted without an approval (overrides the job's)", 'forms may be submitted without an approval'))
    .option('--profile <name>', say("a saved login the run's browser starts with (errand profiles list; overrides the job's)", "a saved login this job's runs start with, unless a run names its own"))
    .addOption(
      new Option('--profile-mode <mode>', say("read_write (the default): the run writes its profile back when it succeeds; read: it only loads it", "read_write (the default): runs write their profile back when they succeed; read: they only load it (for runs side by side)")).choices(['read', 'read_write']),
    )
    .option('--save-profile <name>', say("when the run succeeds, save its browser's state (cookies, storage) as this profile", "when a run succeeds, save its browser's state as this profile"))
    .addOption(
      new Option('--action-space <space>', say("how the agent works pages: dom (the browser tool) or computer (the model's own computer-use tool; overrides the job's)", "how this job's agent works pages: dom or computer, unless a run names its own")).choices(ACTION_SPACES),
    );
}

/** The members the flags given set; a flag not given leaves its member out (the job's or the daemon's default holds). */
export function runOptionsOf(flags: RunOptionFlags): RunOptionMembers {
  return {
    ...(flags.outputSchema === undefined ? {} : { output_schema: readJsonObject(flags.outputSchema, '--output-schema') }),
    ...(flags.connection === undefined ? {} : { connections: flags.connection }),
    ...(flags.proxy === undefined ? {} : { proxy: flags.proxy }),
    ...(flags.sandboxLabel === undefined ? {} : { sandbox_label: flags.sandboxLabel }),
    ...(flags.timeoutS === undefined ? {} : { timeout_s: flags.timeoutS }),
    ...(flags.maxCostUsd === undefined ? {} : { max_cost_usd: flags.maxCostUsd }),
    ...(flags.recording === undefined ? {} : { recording: flags.recording }),
    ...(flags.humanEmail === undefined ? {} : { human_email: flags.humanEmail }),
    ...(flags.humanTimeoutS === undefined ? {} : { human_timeout_s: flags.humanTimeoutS }),
    ...(flags.requireApproval === undefined ? {} : { require_approval: flags.requireApproval }),
    ...(flags.profile === undefined ? {} : { profile: flags.profile }),
    ...(flags.profileMode === undefined ? {} : { profile_mode: flags.profileMode }),
    ...(flags.saveProfile === undefined ? {} : { save_profile: flags.saveProfile }),
    ...(flags.actionSpace === undefined ? {} : { action_space: flags.actionSpace }),
  };
}
