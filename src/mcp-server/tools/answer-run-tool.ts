import type { HumanRequests } from '../../human/human-requests.js';
import { humanAnswerBody, type HumanAnswerBody } from '../../human/human-schemas.js';
import type { McpTool } from './mcp-tool.js';

/** A person answers, through their MCP client, what a waiting run's agent asked (issue 22, item 4). */
export function answerRunTool(deps: { human: HumanRequests }): McpTool<{ task_id: string } & HumanAnswerBody> {
  return {
    name: 'answer_run',
    title: 'Answer a run that waits for a person',
    description: [
      "Answers what a running run's agent asked a person: the run's waiting_for (get_run shows it) says the kind and the question.",
      'Give `request_id`: the waiting_for.request_id of the question you answer, as get_run showed it. If the run asks another question',
      'by then, the answer is refused (request_mismatch, saying what it asks now) and applied to nothing: show the person that question.',
      'kind answer: give `answer` (the text the agent gets). kind approve: give `approved` (true lets the agent go ahead with what it',
      'asked about, a purchase or a submission; false tells it not to). kind takeover: the person did what was asked in the live view;',
      'give `note` saying what was done. Answers the run\'s envelope; a run that waits for nothing is an error.',
    ].join(' '),
    consent: { group: 'act', grants: "answer and approve what the organisation's runs ask a person, such as a purchase" },
    inputSchema: {
      type: 'object',
      additionalProperties: false,
      required: ['task_id', ...humanAnswerBody.required],
      properties: { task_id: { type: 'string', minLength: 1, maxLength: 128, description: "The run's task_id (run_...)." }, ...humanAnswerBody.properties },
    },
    annotations: { title: 'Answer a run that waits for a person', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    call: ({ task_id: taskId, ...body }, ctx) => deps.human.answer(ctx.principal.orgId, taskId, body, { by: `key ${ctx.principal.keyId}`, via: 'mcp' }),
  };
}
