import type { ProfilesService } from '../../profiles/profiles-service.js';
import type { McpTool } from './mcp-tool.js';
import { profileIdOf, profileRefSchema } from './profile-ref.js';

export function checkProfileTool(deps: { profiles: ProfilesService }): McpTool<{ profile: string }> {
  return {
    name: 'check_profile',
    title: 'Check a profile',
    description: [
      "Checks now whether a profile (saved login) is still signed in: its state is loaded into a sandbox's browser,",
      "its check's page is opened, and what shows only when signed in is looked for. Answers the profile with health",
      'signed_in or signed_out and health_detail saying what the page showed (a page that did not load leaves the',
      'health as it was). A signed-out profile is signed in again by the next run that uses it, or by a person from',
      "that run's live view. Refused (profile_has_no_check) for a profile that does not say how to tell.",
    ].join(' '),
    consent: { group: 'connect', grants: "open a saved login's site in a sandbox to see whether it is still signed in" },
    inputSchema: { type: 'object', additionalProperties: false, required: ['profile'], properties: { profile: profileRefSchema } },
    annotations: { title: 'Check a profile', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    call: (input, ctx) => deps.profiles.check(ctx.principal.orgId, profileIdOf(deps.profiles, ctx.principal.orgId, input.profile)),
  };
}
