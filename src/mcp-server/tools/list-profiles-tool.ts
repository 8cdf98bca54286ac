import type { ProfilesService } from '../../profiles/profiles-service.js';
import type { McpTool } from './mcp-tool.js';
import { pageProperties } from './page-properties.js';

export function listProfilesTool(deps: { profiles: ProfilesService }): McpTool<{ limit?: number; cursor?: string }> {
  return {
    name: 'list_profiles',
    title: 'List profiles',
    description: [
      "Lists the organisation's profiles (saved logins), newest first: browser states (cookies, each site's storage)",
      'that runs start signed in with when run_task or run_job names one in profile. Each has an id, a name, origins',
      '(the sites it holds), has_state, saved_at and saved_via (run, live_view, import), last_used_at, and health',
      '(signed_in, signed_out, expired, or unknown before any check) with health_detail saying what the last check saw.',
      'The cookies and stored values are never shown. Answers {data, has_more, next_cursor}; pass next_cursor as cursor',
      'for the next page.',
    ].join(' '),
    consent: { group: 'read', grants: "list the organisation's saved logins and whether they are still signed in (never their cookies)" },
    inputSchema: { type: 'object', additionalProperties: false, properties: pageProperties('prf') },
    annotations: { title: 'List profiles', readOnlyHint: true, openWorldHint: false },
    call: (input, ctx) => deps.profiles.list(ctx.principal.orgId, { limit: input.limit ?? 20, ...(input.cursor === undefined ? {} : { cursor: input.cursor }) }),
  };
}
