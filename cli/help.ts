/**
 * The examples section of a command's --help, the way gh shows them: one `$ errand ...` line each. Every command
 * has at least one (test/cli/help.test.ts checks): `.addHelpText('after', examples('errand runs list --json'))`.
 */
export function examples(...lines: string[]): string {
  return `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}`;
}

/** What `--output-schema` does, for `runs create` and `jobs create|update` alike. */
export const OUTPUT_SCHEMA_HELP =
  'JSON Schema the result must satisfy (inline or @file.json); a result that fails it is sent back to the agent once with the errors, and one that still fails is kept: the run succeeds with confidence "low" and the errors in its warnings';
