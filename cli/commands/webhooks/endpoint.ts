import type { Command } from 'commander';
import { loadConfig } from '../../../src/config/load.js';
import { webhookEventsTo } from '../../../src/event-log/event-catalogue.js';
import { readNetwork } from '../../../src/network/network.js';
import type { OrgWebhookEndpoint } from '../../../src/webhooks/org-endpoints.js';
import { contextOf, type CliContext } from '../../context.js';
import { withWebhookServices } from './webhook-services.js';
import { examples } from '../../help.js';
import { ORG_OPTION_HELP } from '../../pick-org.js';

export type EndpointAction = { kind: 'show' } | { kind: 'set'; url: string } | { kind: 'clear' };

export function registerWebhooksEndpoint(webhooks: Command): void {
  const endpoint = webhooks
    .command('endpoint')
    .description(`show the organisation's webhook endpoint: where ${webhookEventsTo('org_endpoint').join(' and ')} are sent`)
    .addHelpText('after', examples('errand webhooks endpoint', 'errand webhooks endpoint set https://example.com/hooks/errand'))
    .option('--org <id or name>', ORG_OPTION_HELP)
    .action(async (flags: { org?: string }, cmd: Command) => {
      await webhookEndpoint(contextOf(cmd), { kind: 'show' }, flags.org);
    });
  // --org belongs to `endpoint` and is read from there, wherever it was typed.
  endpoint
    .command('set')
    .description('send the organisation\'s own events to <url> (https, and a public address unless dev mode or webhooks.allow_private_targets)')
    .addHelpText('after', examples('errand webhooks endpoint set https://example.com/hooks/errand', 'errand webhooks endpoint set https://example.com/hooks/errand --json'))
    .argument('<url>', 'the endpoint')
    .action(async (url: string, _flags: unknown, cmd: Command) => {
      await webhookEndpoint(contextOf(cmd), { kind: 'set', url }, orgOf(cmd));
    });
  endpoint
    .command('clear')
    .description("stop sending the organisation's own events")
    .addHelpText('after', examples('errand webhooks endpoint clear', 'errand webhooks endpoint clear --json'))
    .action(async (_flags: unknown, cmd: Command) => {
      await webhookEndpoint(contextOf(cmd), { kind: 'clear' }, orgOf(cmd));
    });
}

function orgOf(cmd: Command): string | undefined {
  return cmd.optsWithGlobals<{ org?: string }>().org;
}

export async function webhookEndpoint(ctx: CliContext, action: EndpointAction, org: string | undefined): Promise<void> {
  // The target guard follows the configuration of the data directory (config.json, ERRAND_DEV,
  // ERRAND_WEBHOOKS_ALLOW_PRIVATE_TARGETS, ERRAND_DNS_SERVERS), as the daemon's does; the daemon checks again on
  // every delivery.
  const guard = action.kind === 'set' ? (await readNetwork(loadConfig({ home: ctx.home, env: ctx.env }))).guard : null;
  const result = await withWebhookServices(ctx.home, ctx.env, org, ({ orgId, endpoints }): OrgWebhookEndpoint | Promise<OrgWebhookEndpoint> => {
    switch (action.kind) {
      case 'show':
        return endpoints.get(orgId);
      case 'set':
        return endpoints.set(orgId, action.url, guard!);
      case 'clear':
        return endpoints.clear(orgId);
      default: {
        const unknown: never = action;
        throw new Error(`unknown action ${JSON.stringify(unknown)}`);
      }
    }
  });
  ctx.out.result(result, () => {
    if (result.url === null) ctx.out.line(`${result.org_id} has no webhook endpoint${action.kind === 'clear' ? ' any more' : ''}`);
    else ctx.out.line(`${result.org_id} sends its connection events to ${result.url}`);
  });
}
