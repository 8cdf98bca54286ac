import { HttpClient, type ClientOptions, type RequestOptions } from './core.js';
import { Artifacts } from './resources/artifacts.js';
import { Connections } from './resources/connections.js';
import { Emails } from './resources/emails.js';
import { Evals } from './resources/evals.js';
import { Events } from './resources/events.js';
import { Files } from './resources/files.js';
import { Inboxes } from './resources/inboxes.js';
import { Jobs } from './resources/jobs.js';
import { Profiles } from './resources/profiles.js';
import { Projects } from './resources/projects.js';
import { Runs } from './resources/runs.js';
import type { ResponseOf, Status } from './types.js';
import { Webhooks } from './webhooks.js';

/**
 * The Errand API. `new Errand()` reads ERRAND_API_KEY and ERRAND_API_URL; every option can be given instead.
 *
 *   const errand = new Errand({ apiKey, baseUrl: 'http://127.0.0.1:7370' });
 *   const run = await errand.runs.createAndWait({ prompt: 'Find the price of {{item}}', inputs: { item: 'tea' } });
 */
export class Errand {
  readonly projects: Projects;
  readonly jobs: Jobs;
  readonly runs: Runs;
  /** Evaluations of jobs, and the cases jobs keep. */
  readonly evals: Evals;
  readonly events: Events;
  readonly connections: Connections;
  /** Saved logins runs start with. */
  readonly profiles: Profiles;
  readonly emails: Emails;
  readonly inboxes: Inboxes;
  readonly artifacts: Artifacts;
  readonly files: Files;
  /** Verifies webhook deliveries; needs no key or daemon. */
  readonly webhooks: Webhooks;
  readonly #http: HttpClient;

  constructor(options: ClientOptions = {}) {
    this.#http = new HttpClient(options);
    this.projects = new Projects(this.#http);
    this.jobs = new Jobs(this.#http);
    this.runs = new Runs(this.#http);
    this.evals = new Evals(this.#http);
    this.events = new Events(this.#http);
    this.connections = new Connections(this.#http);
    this.profiles = new Profiles(this.#http);
    this.emails = new Emails(this.#http);
    this.inboxes = new Inboxes(this.#http);
    this.artifacts = new Artifacts(this.#http);
    this.files = new Files(this.#http);
    this.webhooks = new Webhooks();
  }

  get baseUrl(): string {
    return this.#http.baseUrl;
  }

  /** The daemon's model provider, sandboxes, email, and the caller's spend and active runs. */
  status(options?: RequestOptions): Promise<Status> {
    return this.#http.request({ method: 'GET', path: '/v1/status', options });
  }

  /** Whether the daemon answers (no key needed). */
  health(options?: RequestOptions): Promise<ResponseOf<'/healthz', 'get'>> {
    return this.#http.request({ method: 'GET', path: '/healthz', auth: false, options });
  }

  /** The daemon's OpenAPI document (no key needed). */
  openapi(options?: RequestOptions): Promise<Record<string, unknown>> {
    return this.#http.request({ method: 'GET', path: '/v1/openapi.json', auth: false, options });
  }
}
