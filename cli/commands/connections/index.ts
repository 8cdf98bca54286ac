import type { Command } from 'commander';
import { registerConnectionsCheck } from './check.js';
import { registerConnectionsCreate } from './create.js';
import { registerConnectionsDelete } from './delete.js';
import { registerConnectionsGet } from './get.js';
import { registerConnectionsLink } from './link.js';
import { registerConnectionsList } from './list.js';
import { registerConnectionsTools } from './tools.js';
import { registerConnectionsUpdate } from './update.js';
import { examples } from '../../help.js';

export function registerConnections(program: Command): void {
  const connections = program.command('connections').description('connections: credentials and MCP tools that runs use; secrets go in, never out (through the API)').addHelpText('after', examples('errand connections list', 'errand connections create --name github --type token --env-var-name GITHUB_TOKEN --secret-stdin'));
  registerConnectionsList(connections);
  registerConnectionsCreate(connections);
  registerConnectionsGet(connections);
  registerConnectionsUpdate(connections);
  registerConnectionsDelete(connections);
  registerConnectionsCheck(connections);
  registerConnectionsTools(connections);
  registerConnectionsLink(connections);
}
