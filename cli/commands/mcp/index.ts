import type { Command } from 'commander';
import { examples } from '../../help.js';
import { registerMcpApprove } from './approve.js';
import { registerMcpClients } from './clients.js';
import { registerMcpConfig } from './config.js';
import { registerMcpRevoke } from './revoke.js';

export function registerMcp(program: Command): void {
  const mcp = program
    .command('mcp')
    .description("the MCP front door (/mcp): approve sign-ins, list and revoke clients' grants (local admin), print client setup")
    .addHelpText('after', examples('errand mcp config', 'errand mcp clients'));
  registerMcpApprove(mcp);
  registerMcpClients(mcp);
  registerMcpRevoke(mcp);
  registerMcpConfig(mcp);
}
