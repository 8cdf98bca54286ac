import type { Connection } from '../src/connections/connection-record.js';
import type { ConnectionTools } from '../src/connections/connection-tools.js';
import type { CreateConnectionBody, CreateLinkBody, UpdateConnectionBody } from '../src/connections/connection-schemas.js';
import type { ConnectionLink, ConnectionLinkStatus } from '../src/connections/oauth-client/hosted-connect.js';
import type { CreateJobBody, UpdateJobBody } from '../src/jobs/job-schemas.js';
import type { Job } from '../src/jobs/jobs-service.js';
import type { EmailRecord, EmailSendResult } from '../src/mail/outbound/email-record.js';
import type { ConfigureIdentityBody, SendEmailBody, SimulateReplyBody } from '../src/mail/email-schemas.js';
import type { EmailIdentity, EmailIdentityWithSecret } from '../src/mail/identity/identity-service.js';
import type { CreateInboxBody, UpdateInboxBody } from '../src/mail/identity/inbox-schemas.js';
import type { Inbox } from '../src/mail/identity/inboxes-service.js';
import type { ListedReceivedEmail, ReceivedEmailRecord } from '../src/mail/inbound/received-emails.js';
import type { DomainCheck } from '../src/mail/identity/sending-domain.js';
import type { Suppression } from '../src/mail/outbound/suppressions.js';
import type { Project } from '../src/projects/projects-service.js';
import type { CreateProjectBody, UpdateProjectBody } from '../src/projects/project-schemas.js';
import type { LiveRevocation } from '../src/live/live-service.js';
import type { RunEnvelope } from '../src/runs/envelope.js';
import type { JobRecipe, RecipeDeleted } from '../src/recipes/recipes-service.js';
import type { HumanAnswerBody } from '../src/human/human-schemas.js';
import type { CreateJobRunBody, CreateRunBody } from '../src/runs/run-schemas.js';
import type { RunAccepted as AcceptedRun, RunCheck, RunWarning } from '../src/runs/runs-service.js';
import type { SkippedFiring } from '../src/schedules/skipped-firings.js';
import type { DaemonStatus as ReportedStatus } from '../src/status/status-service.js';
import type { SandboxHostReport } from '../src/sandbox/driver.js';
import type { RunStep } from '../src/steps/steps-service.js';
import type { RunFile } from '../src/run-files/run-files-service.js';
import type { StoredFile } from '../src/files/files-service.js';
import { ApiConnectionError, ApiError } from './api-error.js';

export type { RunFile };

/** One Docker engine of `sandbox.hosts` as GET /v1/status reports it (issue 26). */
export type SandboxHostStatus = SandboxHostReport;

/** GET /v1/status. `sandbox.hosts` is absent from a daemon older than issue 26, which runs sandboxes on one engine. */
export type DaemonStatus = Omit<ReportedStatus, 'sandbox'> & { sandbox: Omit<ReportedStatus['sandbox'], 'hosts'> & { hosts?: SandboxHostReport[] } };
export type { JobRecipe, RecipeDeleted };
/** The 202 of a run's creation, with the `livemode` every response carries. */
export type RunAccepted = AcceptedRun & { livemode: boolean };
export type { HumanAnswerBody, Job, CreateJobBody, UpdateJobBody, Project, CreateProjectBody, UpdateProjectBody, RunEnvelope, CreateJobRunBody, CreateRunBody, RunCheck, RunWarning, RunStep, SkippedFiring };
export type { StoredFile };
export type { Connection, ConnectionTools, ConnectionLink, ConnectionLinkStatus, CreateConnectionBody, CreateLinkBody, UpdateConnectionBody };
export type { EmailRecord, EmailSendResult, ConfigureIdentityBody, EmailIdentity, EmailIdentityWithSecret, CreateInboxBody, Inbox, UpdateInboxBody, ListedReceivedEmail, ReceivedEmailRecord, SendEmailBody, SimulateReplyBody, DomainCheck, Suppression };

export interface ListPage<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

export interface ListQuery {
  limit?: number;
  cursor?: string;
}

/** What `GET /v1/emails/received` filters by: an inbox's id, a run's id, an RFC 3339 time. */
export type ReceivedEmailsQuery = ListQuery & { inbox?: string; run?: string; since?: string };

export interface Deleted {
  id: string;
  object: string;
  deleted: true;
}

export interface ApiClientOptions {
  /** The API's address, with or without the trailing `/v1`. */
  baseUrl: string;
  apiKey: string;
  userAgent?: string;
  /** Longest wait for one response; default 30 s. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

type Query = Record<string, string | number | boolean | undefined>;

/** A typed client of the /v1 API. Every method answers the parsed body or throws `ApiError` / `ApiConnectionError`. */
export class ApiClient {
  readonly origin: string;
  private readonly fetchImpl: typeof fetch;

  constructor(private readonly options: ApiClientOptions) {
    this.origin = apiOrigin(options.baseUrl);
    this.fetchImpl = options.fetch ?? fetch;
  }

  listProjects(query: ListQuery = {}): Promise<ListPage<Project>> {
    return this.request('GET', '/v1/projects', { query: { ...query } });
  }
  createProject(body: CreateProjectBody): Promise<Project> {
    return this.request('POST', '/v1/projects', { body });
  }
  getProject(id: string): Promise<Project> {
    return this.request('GET', `/v1/projects/${seg(id)}`);
  }
  updateProject(id: string, body: UpdateProjectBody): Promise<Project> {
    return this.request('PATCH', `/v1/projects/${seg(id)}`, { body });
  }
  deleteProject(id: string): Promise<Deleted> {
    return this.request('DELETE', `/v1/projects/${seg(id)}`);
  }

  /**
   * POST /v1/files with `content` as the raw body, streamed (never read whole), under `name`. No time limit: a large
   * file takes as long as it takes; the daemon answers a refusal (413, 402) as soon as it can tell.
   */
  async uploadFile(content: ReadableStream<Uint8Array>, options: { name: string; size: number; contentType?: string }): Promise<StoredFile> {
    const url = new URL(`${this.origin}/v1/files`);
    url.searchParams.set('name', options.name);
    const headers = { ...this.headers(), accept: 'application/json', 'content-type': options.contentType ?? 'application/octet-stream', 'content-length': String(options.size) };
    let res: Response;
    try {
      // Node's fetch sends a stream body only half-duplex, and says so only when asked.
      res = await this.fetchImpl(url, { method: 'POST', headers, body: content, duplex: 'half' } as RequestInit);
    } catch (err) {
      throw new ApiConnectionError(this.origin, connectionReason(err));
    }
    return parsed<StoredFile>(res);
  }
  listFiles(query: ListQuery & { sha256?: string } = {}): Promise<ListPage<StoredFile>> {
    return this.request('GET', '/v1/files', { query: { ...query } });
  }
  getFile(id: string): Promise<StoredFile> {
    return this.request('GET', `/v1/files/${seg(id)}`);
  }
  deleteFile(id: string): Promise<Deleted> {
    return this.request('DELETE', `/v1/files/${seg(id)}`);
  }

  listJobs(query: ListQuery & { project_id?: string } = {}): Promise<ListPage<Job>> {
    return this.request('GET', '/v1/jobs', { query: { ...query } });
  }
  createJob(body: CreateJobBody): Promise<Job> {
    return this.request('POST', '/v1/jobs', { body });
  }
  getJob(id: string): Promise<Job> {
    return this.request('GET', `/v1/jobs/${seg(id)}`);
  }
  updateJob(id: string, body: UpdateJobBody): Promise<Job> {
    return this.request('PATCH', `/v1/jobs/${seg(id)}`, { body });
  }
  deleteJob(id: string): Promise<Deleted> {
    return this.request('DELETE', `/v1/jobs/${seg(id)}`);
  }

  getJobRecipe(jobId: string): Promise<JobRecipe> {
    return this.request('GET', `/v1/jobs/${seg(jobId)}/recipe`);
  }
  deleteJobRecipe(jobId: string): Promise<RecipeDeleted> {
    return this.request('DELETE', `/v1/jobs/${seg(jobId)}/recipe`);
  }

  listSkippedFirings(jobId: string, query: ListQuery = {}): Promise<ListPage<SkippedFiring>> {
    return this.request('GET', `/v1/jobs/${seg(jobId)}/skipped_firings`, { query: { ...query } });
  }

  createRun(body: CreateRunBody): Promise<RunAccepted> {
    return this.request('POST', '/v1/runs', { body });
  }
  createJobRun(jobId: string, body: CreateJobRunBody): Promise<RunAccepted> {
    return this.request('POST', `/v1/jobs/${seg(jobId)}/runs`, { body });
  }
  checkRun(body: CreateRunBody): Promise<RunCheck> {
    return this.request('POST', '/v1/runs/check', { body });
  }
  checkJobRun(jobId: string, body: CreateJobRunBody): Promise<RunCheck> {
    return this.request('POST', `/v1/jobs/${seg(jobId)}/runs/check`, { body });
  }
  listRuns(query: ListQuery & { job_id?: string } = {}): Promise<ListPage<RunEnvelope>> {
    return this.request('GET', '/v1/runs', { query: { ...query } });
  }
  getRun(id: string, signal?: AbortSignal): Promise<RunEnvelope> {
    return this.request('GET', `/v1/runs/${seg(id)}`, signal === undefined ? {} : { signal });
  }
  cancelRun(id: string): Promise<RunEnvelope> {
    return this.request('POST', `/v1/runs/${seg(id)}/cancel`);
  }
  answerRun(id: string, body: HumanAnswerBody): Promise<RunEnvelope> {
    return this.request('POST', `/v1/runs/${seg(id)}/human`, { body });
  }
  revokeLiveLinks(id: string): Promise<LiveRevocation> {
    return this.request('POST', `/v1/runs/${seg(id)}/live/revoke`, { body: {} });
  }
  rerun(id: string): Promise<RunAccepted> {
    return this.request('POST', `/v1/runs/${seg(id)}/rerun`);
  }
  listRunSteps(id: string): Promise<ListPage<RunStep>> {
    return this.request('GET', `/v1/runs/${seg(id)}/steps`);
  }
  listRunFiles(id: string): Promise<ListPage<RunFile>> {
    return this.request('GET', `/v1/runs/${seg(id)}/files`);
  }

  /**
   * Opens a server-sent event stream (`/v1/events`, `/v1/runs/{id}/events`): the response, whose body the caller
   * reads; 204 when there is nothing more to follow. Throws like `request` when it cannot be opened.
   */
  async openEventStream(path: string, init: { lastEventId: number | null; signal?: AbortSignal }): Promise<Response> {
    const headers: Record<string, string> = { ...this.headers(), accept: 'text/event-stream' };
    if (init.lastEventId !== null) headers['last-event-id'] = String(init.lastEventId);
    let res: Response;
    try {
      res = await this.fetchImpl(`${this.origin}${path}`, { headers, ...(init.signal === undefined ? {} : { signal: init.signal }) });
    } catch (err) {
      if (init.signal?.aborted) throw err;
      throw new ApiConnectionError(this.origin, connectionReason(err));
    }
    if (!res.ok) {
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // Not JSON: ApiError keeps an excerpt.
      }
      throw ApiError.fromResponse(res.status, parsed, res.headers.get('x-request-id'));
    }
    return res;
  }

  private headers(): Record<string, string> {
    return { authorization: `Bearer ${this.options.apiKey}`, 'user-agent': this.options.userAgent ?? 'errand-cli' };
  }

  /** GET /v1/status: how the daemon stands, for the key's organisation. */
  status(): Promise<DaemonStatus> {
    return this.request('GET', '/v1/status');
  }
  listConnections(query: ListQuery = {}): Promise<ListPage<Connection>> {
    return this.request('GET', '/v1/connections', { query: { ...query } });
  }
  createConnection(body: CreateConnectionBody): Promise<Connection> {
    return this.request('POST', '/v1/connections', { body });
  }
  getConnection(id: string, signal?: AbortSignal): Promise<Connection> {
    return this.request('GET', `/v1/connections/${seg(id)}`, signal === undefined ? {} : { signal });
  }
  updateConnection(id: string, body: UpdateConnectionBody): Promise<Connection> {
    return this.request('PATCH', `/v1/connections/${seg(id)}`, { body });
  }
  deleteConnection(id: string): Promise<Deleted> {
    return this.request('DELETE', `/v1/connections/${seg(id)}`);
  }
  connectionTools(id: string): Promise<ConnectionTools> {
    return this.request('GET', `/v1/connections/${seg(id)}/tools`);
  }
  checkConnection(id: string): Promise<Connection> {
    return this.request('POST', `/v1/connections/${seg(id)}/check`);
  }
  createConnectionLink(body: CreateLinkBody): Promise<ConnectionLink> {
    return this.request('POST', '/v1/connections/links', { body });
  }
  getConnectionLink(id: string, signal?: AbortSignal): Promise<ConnectionLinkStatus> {
    return this.request('GET', `/v1/connections/links/${seg(id)}`, signal === undefined ? {} : { signal });
  }
  sendEmail(body: SendEmailBody): Promise<EmailSendResult> {
    return this.request('POST', '/v1/emails', { body });
  }
  listEmails(query: ListQuery = {}): Promise<ListPage<EmailRecord>> {
    return this.request('GET', '/v1/emails', { query: { ...query } });
  }
  getEmail(id: string): Promise<EmailRecord> {
    return this.request('GET', `/v1/emails/${seg(id)}`);
  }
  /** The message as it was built and sent (RFC 5322 text). */
  rawEmail(id: string): Promise<string> {
    return this.request('GET', `/v1/emails/${seg(id)}/raw`);
  }
  listReceivedEmails(query: ReceivedEmailsQuery = {}): Promise<ListPage<ListedReceivedEmail>> {
    return this.request('GET', '/v1/emails/received', { query: { ...query } });
  }
  getReceivedEmail(id: string): Promise<ReceivedEmailRecord> {
    return this.request('GET', `/v1/emails/received/${seg(id)}`);
  }
  simulateReply(id: string, body: SimulateReplyBody): Promise<ReceivedEmailRecord> {
    return this.request('POST', `/v1/emails/${seg(id)}/simulate_reply`, { body });
  }
  getIdentity(): Promise<EmailIdentity> {
    return this.request('GET', '/v1/emails/identity');
  }
  configureIdentity(body: ConfigureIdentityBody): Promise<EmailIdentityWithSecret> {
    return this.request('POST', '/v1/emails/identity', { body });
  }
  verifySendingDomain(): Promise<DomainCheck> {
    return this.request('POST', '/v1/emails/identity/domain/verify');
  }
  listSuppressions(query: ListQuery = {}): Promise<ListPage<Suppression>> {
    return this.request('GET', '/v1/emails/suppressions', { query: { ...query } });
  }
  removeSuppression(address: string): Promise<{ address: string; object: 'email_suppression'; deleted: true }> {
    return this.request('DELETE', `/v1/emails/suppressions/${seg(address)}`);
  }

  listInboxes(query: ListQuery = {}): Promise<ListPage<Inbox>> {
    return this.request('GET', '/v1/inboxes', { query: { ...query } });
  }
  createInbox(body: CreateInboxBody): Promise<Inbox> {
    return this.request('POST', '/v1/inboxes', { body });
  }
  getInbox(id: string): Promise<Inbox> {
    return this.request('GET', `/v1/inboxes/${seg(id)}`);
  }
  updateInbox(id: string, body: UpdateInboxBody): Promise<Inbox> {
    return this.request('PATCH', `/v1/inboxes/${seg(id)}`, { body });
  }
  deleteInbox(id: string): Promise<Deleted> {
    return this.request('DELETE', `/v1/inboxes/${seg(id)}`);
  }
  sendFromInbox(id: string, body: SendEmailBody): Promise<EmailSendResult> {
    return this.request('POST', `/v1/inboxes/${seg(id)}/messages`, { body });
  }

  async request<T>(method: string, path: string, init: { query?: Query; body?: unknown; signal?: AbortSignal } = {}): Promise<T> {
    const url = new URL(`${this.origin}${path}`);
    for (const [k, v] of Object.entries(init.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { ...this.headers(), accept: 'application/json' };
    let body: string | undefined;
    if (init.body !== undefined) {
      body = JSON.stringify(init.body);
      headers['content-type'] = 'application/json';
    }
    const timeout = AbortSignal.timeout(this.options.timeoutMs ?? 30_000);
    const signal = init.signal === undefined ? timeout : AbortSignal.any([init.signal, timeout]);
    let res: Response;
    try {
      res = await this.fetchImpl(url, { method, headers, body, signal });
    } catch (err) {
      if (init.signal?.aborted) throw err;
      if (timeout.aborted) throw new ApiConnectionError(this.origin, `no answer within ${(this.options.timeoutMs ?? 30_000) / 1000} s`);
      throw new ApiConnectionError(this.origin, connectionReason(err));
    }
    return parsed<T>(res);
  }
}

/** A response's JSON body, or the `ApiError` it answers. */
async function parsed<T>(res: Response): Promise<T> {
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text === '' ? null : JSON.parse(text);
  } catch {
    // Not JSON (a proxy's error page): ApiError keeps a short excerpt.
  }
  if (!res.ok) throw ApiError.fromResponse(res.status, body, res.headers.get('x-request-id'));
  return body as T;
}

/** Every item of a list, following `next_cursor` page by page. */
export async function* paginate<T>(list: (query: ListQuery) => Promise<ListPage<T>>, pageSize = 200): AsyncGenerator<T> {
  let cursor: string | undefined;
  for (;;) {
    const page = await list({ limit: pageSize, ...(cursor === undefined ? {} : { cursor }) });
    yield* page.data;
    if (!page.has_more || page.next_cursor === null) return;
    cursor = page.next_cursor;
  }
}

/** `http://host:port`, whether the address was given as the origin or as the `/v1` base the spec speaks of. */
export function apiOrigin(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
}

function seg(id: string): string {
  return encodeURIComponent(id);
}

function connectionReason(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (err instanceof Error ? err.message : String(err));
}
