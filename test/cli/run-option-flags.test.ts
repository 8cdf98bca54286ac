import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { addJobFieldOptions, jobFieldsOf, unsetFieldsOf, type JobFieldFlags } from '../../cli/commands/jobs/job-fields.js';
import { createRunOptionsOf, type CreateRunFlags } from '../../cli/commands/runs/create.js';
import { addRunOptionFlags, runOptionsOf } from '../../cli/commands/runs/run-option-flags.js';
import { runOptionMembers } from '../../src/runs/run-options.js';

const ARGV = [
  '--output-schema', '{"type":"object"}',
  '--connection', 'shop', '--connection', 'mail',
  '--proxy', 'de-proxy',
  '--sandbox-label', 'gpu',
  '--timeout-s', '90',
  '--max-cost-usd', '0.75',
  '--no-recording',
  '--human-email', 'ops@example.com',
  '--human-timeout-s', '600',
  '--require-approval',
  '--profile', 'portal',
  '--profile-mode', 'read',
  '--save-profile', 'portal-2',
  '--action-space', 'computer',
];

const MEMBERS = {
  output_schema: { type: 'object' },
  connections: ['shop', 'mail'],
  proxy: 'de-proxy',
  sandbox_label: 'gpu',
  timeout_s: 90,
  max_cost_usd: 0.75,
  recording: false,
  human_email: 'ops@example.com',
  human_timeout_s: 600,
  require_approval: true,
  profile: 'portal',
  profile_mode: 'read',
  save_profile: 'portal-2',
  action_space: 'computer',
};

function parse<T>(define: (cmd: Command) => Command, argv: string[]): T {
  const cmd = define(new Command('x').exitOverride());
  cmd.parse(argv, { from: 'user' });
  return cmd.opts() as T;
}

describe('the run option flags', () => {
  it('map to the same members for a run of a prompt, a run of a job, and a job\'s defaults', () => {
    const runFlags = parse<CreateRunFlags>((cmd) => addRunOptionFlags(cmd, 'run'), ARGV);
    expect(createRunOptionsOf('Do it', runFlags).body).toEqual({ prompt: 'Do it', ...MEMBERS });
    expect(createRunOptionsOf(undefined, { ...runFlags, job: 'job_1' }).body).toEqual(MEMBERS);
    expect(jobFieldsOf(parse<JobFieldFlags>(addJobFieldOptions, ARGV))).toEqual(MEMBERS);
  });

  it('leave out every member whose flag is not given, so the job\'s or the daemon\'s default holds', () => {
    expect(runOptionsOf(parse((cmd) => addRunOptionFlags(cmd, 'run'), []))).toEqual({});
    expect(runOptionsOf(parse((cmd) => addRunOptionFlags(cmd, 'job'), ['--recording', '--no-require-approval']))).toEqual({ recording: true, require_approval: false });
  });

  it('cover every run option of the API but those `runs create` maps itself (inputs, name, callback, key, files)', () => {
    const ownMapping = ['inputs', 'name', 'callback_url', 'idempotency_key', 'files'];
    const mapped = Object.keys(runOptionsOf(parse((cmd) => addRunOptionFlags(cmd, 'run'), ARGV)));
    expect(mapped.sort()).toEqual(Object.keys(runOptionMembers).filter((m) => !ownMapping.includes(m)).sort());
  });

  it('refuse an action space that is not dom or computer', () => {
    expect(() => parse((cmd) => addRunOptionFlags(cmd, 'run'), ['--action-space', 'pixels'])).toThrow(/Allowed choices are dom, computer/);
  });

  it('let `jobs update --unset` clear a job\'s sandbox label, as it clears its proxy', () => {
    expect(unsetFieldsOf(['sandbox_label', 'proxy'])).toEqual({ sandbox_label: null, proxy: null });
  });

  it('let `jobs update --unset` clear a job\'s max_cost_usd', () => {
    expect(unsetFieldsOf(['max_cost_usd'])).toEqual({ max_cost_usd: null });
  });

  it('refuse a --max-cost-usd that is not a number above 0', () => {
    for (const bad of ['0', '-1', 'abc', '']) {
      expect(() => parse((cmd) => addRunOptionFlags(cmd, 'run'), ['--max-cost-usd', bad])).toThrow(/expected a number above 0/);
    }
  });
});
