import type { ProfilesService } from '../../profiles/profiles-service.js';
import { checkProfileTool } from './check-profile-tool.js';
import { getProfileTool } from './get-profile-tool.js';
import { listProfilesTool } from './list-profiles-tool.js';
import type { McpTool } from './mcp-tool.js';

export interface ProfileToolDeps {
  profiles: ProfilesService;
}

/**
 * The tools over profiles (saved logins), in the order clients list them. None takes or answers a state: cookies and
 * stored values would pass through the assistant's model, so imports stay with the REST API and the CLI.
 */
export function profileTools(deps: ProfileToolDeps): McpTool<any>[] {
  return [listProfilesTool(deps), getProfileTool(deps), checkProfileTool(deps)];
}
