/** How a run ran (the envelope's `mode`): by its agent, by replaying its job's recipe, or a replay the agent took over. */
export type RunMode = 'agent' | 'replay' | 'replay_then_agent';
