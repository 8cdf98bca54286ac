import { type AgentTool } from '../../agent-tools/agent-tool.js';
import { textContent } from '../../agent-tools/tool-content.js';

/** The run's own receiving address: made on first use, accepting mail while the run is running. */
export function emailAddressTool(address: () => string): AgentTool<Record<string, never>> {
  return {
    spec: {
      name: 'email_address',
      description:
        "Get this run's own email address. Use it where a site asks for an email (a sign-up, a one-time code, a magic link); " +
        'read what arrives with wait_for_email. It receives mail only while this run is running.',
      inputSchema: { type: 'object', properties: {} },
    },
    summary: "email_address: this run's own email address, for sign-ups, one-time codes and magic links.",
    parse: () => ({}),
    async execute(_input, ctx, call) {
      const text = `This run's email address is ${address()}. Mail sent to it while the run is running can be read with wait_for_email.`;
      ctx.recorder.toolCall({ name: 'email_address', input: call.input, output: text, isError: false, durationMs: 0 });
      return { kind: 'result', content: textContent(text), isError: false };
    },
  };
}
