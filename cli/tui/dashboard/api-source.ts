import { withDataDirectory } from '../../../src/admin-services.js';
import { nextFiring } from '../../../src/schedules/next-firing.js';
import type { Errand } from '../../api.js';
import type { CliContext } from '../../context.js';
import { organisationOfKey } from '../../key-organisation.js';
import type { Deliveries, DashboardSource, JobView, MailItem, MailRecord } from './source.js';

/** How many recent runs the dashboard loads when it starts; later ones arrive through the event stream. */
const RECENT_RUNS = 100;
/** How many of the most recent messages received, and of those sent, the email pane shows. */
const RECENT_MAIL = 100;

/** The dashboard's source in `errand tui`: the API, and the data directory for webhook deliveries. */
export function apiSource(ctx: CliContext): DashboardSource {
  const api: Errand = ctx.api();
  let orgId: Promise<string> | null = null;
  const organisation = () => (orgId ??= organisationOfKey(ctx, 'webhook deliveries are'));
  return {
    events: (signal, onConnection) => api.events.stream({ signal, onConnection, maxReconnects: Number.POSITIVE_INFINITY }),
    listRuns: async () => (await api.runs.list({ limit: RECENT_RUNS })).data,
    getRun: (id) => api.runs.get(id),
    runSteps: async (id) => (await api.runs.steps(id)).data,
    cancelRun: (id) => api.runs.cancel(id),
    answerRun: (id, body) => api.runs.answerHuman(id, body),
    rerun: (id) => api.runs.rerun(id),
    async listJobs() {
      const jobs: JobView[] = [];
      for await (const job of api.jobs.list({ limit: 200 })) {
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
      for await (const c of api.connections.list({ limit: 200 })) connections.push(c);
      return connections;
    },
    async listMail() {
      const [received, sent] = await Promise.all([api.emails.received.list({ limit: RECENT_MAIL }), api.emails.list({ limit: RECENT_MAIL })]);
      const items: MailItem[] = [
        ...received.data.map((email) => ({ direction: 'in' as const, id: email.message_id, at: email.received_at, email })),
        ...sent.data.map((email) => ({ direction: 'out' as const, id: email.id, at: email.created_at, email })),
      ];
      return items.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
    },
    async readMail(item): Promise<MailRecord> {
      return item.direction === 'in' ? { direction: 'in', email: await api.emails.received.get(item.id) } : { direction: 'out', email: await api.emails.get(item.id) };
    },
  };
}
