import type { Logger } from 'pino';
import type { ToolContext } from '../agent-tools/agent-tool.js';
import type { RunCredentials } from '../connections/run-connections.js';
import type { SecretMask } from '../connections/secret-mask.js';
import type { RunOutcome } from '../runs/run-outcome.js';
import type { Sandbox } from '../sandbox/driver.js';
import type { RunRow } from '../store/runs-table.js';
import type { RunMode } from '../vocabulary/run-modes.js';
import type { AttemptGate } from './attempt-gate.js';
import type { PlacedInput } from './placed-input.js';

/**
 * A run's attempt as its participants see it, once its sandbox is up: what they set up, observe, take over or keep
 * of it. The engine makes one per attempt; participants never see each other, only what they added to it.
 */
export interface Attempt {
  readonly run: RunRow;
  /** Fires when the attempt stops early (cancel, timeout, shutdown, a lost lease or host). */
  readonly signal: AbortSignal;
  readonly logger: Logger;
  /** The run's connections as the attempt uses them: secrets, environment, proxy. */
  readonly credentials: RunCredentials;
  /** Masks the run's secrets, in every form, out of text (connections/secret-mask.ts). */
  readonly mask: SecretMask;
  /**
   * The sandbox as the agent uses it: the driver's, or what an earlier participant wrapped it in (`joined.sandbox`).
   * A participant that must act past every observer keeps the one it was given.
   */
  readonly sandbox: Sandbox;
  /** The run's input files, as far as a participant has placed them (empty until then). */
  readonly inputFiles: readonly PlacedInput[];
  /** Shows `text` as the run's progress (the envelope's last_action), masked. */
  progress(text: string): void;
  /** Times `work` as one phase of the attempt (logged with its end: docs/architecture.md, "A run's life"). */
  time<T>(phase: string, work: () => Promise<T>): Promise<T>;
}

/** How an attempt's agent starts: from the task, or after a participant did part of it (a replay that diverged). */
export type AttemptStart =
  /** The participant carried the attempt out to its outcome; the agent does not start. */
  | { kind: 'finished'; outcome: RunOutcome }
  /** The agent starts from here, with this account of what was done after its task; the run's mode says how. */
  | { kind: 'handover'; handover: string; mode: RunMode };

/** A change a participant makes to the attempt's outcome (the recording's links, a file problem, a warning). */
export type OutcomeChange = (outcome: RunOutcome) => RunOutcome;

/**
 * What a participant does in one attempt it joined. Every member is optional: a participant acts only where it
 * has something to do.
 */
export interface AttemptRole {
  /** What the participant adds to the attempt for the agent and the participants after it. */
  readonly joined?: {
    /** Wraps the sandbox the agent and later participants use (a recipe's observer). */
    sandbox?: Sandbox;
    /** The run's input files, placed in the sandbox. */
    inputFiles?: readonly PlacedInput[];
    /** A gate the agent passes before each model and tool call (a person's control of the browser). */
    gate?: AttemptGate;
    /** What the agent is told after its task, before it starts (what a person answered an earlier attempt). */
    briefing?: string;
    /** What the agent is told before its next model call, as it comes (an answer that arrived meanwhile). */
    notes?: () => string[];
  };
  /**
   * Before the agent starts: carry the attempt out, or hand the agent a start (a replay), with what the agent's tools
   * get (`context`). The first participant that answers one decides; the later ones are not asked.
   */
  begin?(context: ToolContext): Promise<AttemptStart | null>;
  /**
   * The attempt has an outcome (the agent's, a replay's, or a failure): keep what the participant keeps of it, and
   * answer how the outcome changes. The roles settle side by side; their changes apply in the participants' order.
   */
  settle?(outcome: RunOutcome): Promise<OutcomeChange | null>;
  /** The attempt ends, however it ends: release what joining took. In the reverse order of joining, once. */
  close?(): Promise<void>;
}

/**
 * A part that takes part in every attempt that has a sandbox (issue 32, item 1): recording, the live view, input
 * files, run files, recipes, the run's proxy. The engine's list of them is ordered (docs/architecture.md, "Adding
 * a participant"); each joins once the sandbox is up and the ones before it have joined.
 */
export interface AttemptParticipant {
  /** Names the attempt's phases its work is timed under (`<name>.join`, `<name>.settle`). */
  readonly name: string;
  /** Joins the attempt, doing what must be done before the agent starts; null when it has no part in this one. */
  join(attempt: Attempt): Promise<AttemptRole | null>;
}
