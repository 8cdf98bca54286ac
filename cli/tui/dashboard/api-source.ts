import { withDataDirectory } from '../../../src/admin-services.js';
import { nextFiring } from '../../../src/schedules/next-firing.js';
import { paginate, type ApiClient } from '../../api-client.js';
import type { CliContext } from '../../context.js';
import { followEvents } from '../../event-stream.js';
import { organisationOfKey } from '../../key-organisation.js';
import type { Deliveries, DashboardSource, JobView, MailItem, MailRecord } from './source.js';

/** How many recent runs the dashboard loads when it starts; later ones arrive through the event stream. */
const RECENT_RUNS = 100;
/** How many of the most recent messages received, and of those sent, the email pane shows. */
const RECENT_MAIL = 100;

/** The dashboard's source in `errand tui`: the API, and the data directory for webhook deliveries. */
export function apiSource(ctx: CliContext): DashboardSource {
  const api: ApiClient = ctx.api();
  let orgId: Promise<string> | null = null;
  const organisation = () => (orgId ??= organisationOfKey(ctx, 'webhook deliveries are'));
  return {
    events: (signal, onConnection) => followEvents(api, '/v1/events', { signal, onConnection, reconnectForMs: Number.POSITIVE_INFINITY }),
    listRuns: async () => (await api.listRuns({ limit: RECENT_RUNS })).data,
    getRun: (id) => api.getRun(id),
    runSteps: async (id) => (await api.listRunSteps(id)).data,
    cancelRun: (id) => api.cancelRun(id),
    answerRun: (id, body) => api.answerRun(id, body),
    rerun: (id) => api.rerun(id),
    async listJobs() {
      const jobs: JobView[] = [];
      for await (const job of paginate((q) => api.listJobs(q))) {
        const next = job.schedule === null ? null : await nextFiring(job.schedule);
        jobs.push({ ...job, next_firing: next === null ? null : next.toISOString() });
      }
      return jobs;
    },
    async deliveries(): Promise<Deliveries> {
      try {
        const org = await organisation();
        return { kind: 'list', items: await withDataDirectory(ctx.home, ctx.env, ({ deliveries }) => deliveries.list(org, { limit: 100 }).items) };
      } catch (err) {
        orgId = null;
        return { kind: 'unavailable', reason: (err as Error).message };
      }
    },
    redeliver: async (id) => {
      const org = await organisation();
      return withDataDirectory(ctx.home, ctx.env, ({ deliveries }) => deliveries.redeliver(org, id));
    },
    status: () => api.status(),
    async listConnections() {
      const connections = [];
      for await (const c of paginate((q) => api.listConnections(q))) connections.push(c);
      return connections;
    },
    async listMail() {
      const [received, sent] = await Promise.all([api.listReceivedEmails({ limit: RECENT_MAIL }), api.listEmails({ limit: RECENT_MAIL })]);
      const items: MailItem[] = [
        ...received.data.map((email) => ({ direction: 'in' as const, id: email.message_id, at: email.received_at, email })),
        ...sent.data.map((email) => ({ direction: 'out' as const, id: email.id, at: email.created_at, email })),
      ];
      return items.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
    },
    async readMail(item): Promise<MailRecord> {
      return item.direction === 'in' ? { direction: 'in', email: await api.getReceivedEmail(item.id) } : { direction: 'out', email: await api.getEmail(item.id) };
    },
  };
}
