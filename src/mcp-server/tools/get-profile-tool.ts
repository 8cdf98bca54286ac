import type { ProfilesService } from '../../profiles/profiles-service.js';
import type { McpTool } from './mcp-tool.js';
import { profileIdOf, profileRefSchema } from './profile-ref.js';

export function getProfileTool(deps: { profiles: ProfilesService }): McpTool<{ profile: string }> {
  return {
    name: 'get_profile',
    title: 'Get a profile',
    description: [
      'Answers one profile (saved login) as it is recorded, without opening the site: the sites it holds, when and how',
      'it was saved, when a run last used it, how it is checked (check: a url and a text or role shown only when',
      'signed in), its health and health_detail, and expires_at. Its cookies and stored values are never shown.',
      'To find out whether it is still signed in now, call check_profile.',
    ].join(' '),
    consent: { group: 'read', grants: "read one saved login's record (never its cookies)" },
    inputSchema: { type: 'object', additionalProperties: false, required: ['profile'], properties: { profile: profileRefSchema } },
    annotations: { title: 'Get a profile', readOnlyHint: true, openWorldHint: false },
    call: (input, ctx) => deps.profiles.get(ctx.principal.orgId, profileIdOf(deps.profiles, ctx.principal.orgId, input.profile)),
  };
}
