/** What the model is told when its result does not satisfy the output schema: it gets one chance to correct it. */
export function repairPrompt(errors: readonly string[]): string {
  return `The result does not satisfy the output schema:\n${errors.map((e) => `- ${e}`).join('\n')}\nCall finish again with a corrected result.`;
}
