/**
 * Every configuration key, its type, default and meaning. `docs/configuration.md` documents the same table;
 * `test/config/schema.test.ts` checks that the two agree.
 */
import {
  inputPriceKey,
  MODEL_ALIASES,
  MODEL_DEFAULTS,
  MODEL_PROVIDERS,
  outputPriceKey,
  providerModelKey,
  type InputPriceKey,
  type OutputPriceKey,
  type ProviderModelKey,
} from '../vocabulary/models.js';
import { COMPUTER_DISPLAYS, DEFAULT_COMPUTER_DISPLAY } from '../vocabulary/action-spaces.js';

export type ConfigValue = string | number | boolean | null;

export interface KeySpec {
  type: 'string' | 'integer' | 'number' | 'boolean' | 'enum' | 'url' | 'number-list' | 'json-object';
  default: ConfigValue;
  description: string;
  min?: number;
  max?: number;
  values?: readonly string[];
  nullable?: boolean;
  /**
   * An operator secret: set sealed under the master key (`errand config set-secret`), or by `ERRAND_<KEY>` or
   * `ERRAND_<KEY>_FILE`; never by a flag, never shown, never in a backup in plain text. `config.json` still works
   * for one (older installations) but the daemon warns.
   */
  secret?: true;
}

export const CONFIG_KEYS = {
  'server.host': { type: 'string', default: '127.0.0.1', description: 'Address the HTTP API binds to.' },
  'server.port': { type: 'integer', default: 7370, min: 0, max: 65535, description: 'Port of the HTTP API; 0 picks a free one.' },
  'server.headers_timeout_s': {
    type: 'integer',
    default: 60,
    min: 1,
    max: 3600,
    description: "Longest a request's line and headers may take to arrive (Node's headersTimeout); a request still sending them then is answered 408 request_timeout. At most server.request_timeout_s.",
  },
  'server.request_timeout_s': {
    type: 'integer',
    default: 3600,
    min: 1,
    max: 86_400,
    description: "Longest a whole request, its body included, may take to arrive (Node's requestTimeout); then 408 request_timeout. Long enough for files.max_mb over a slow link (100 MiB at 256 kbit/s takes 55 min); raise it with files.max_mb.",
  },
  'server.body_idle_timeout_s': {
    type: 'integer',
    default: 30,
    min: 1,
    max: 3600,
    description: "Longest a request's body may pause between two bytes; then 408 request_timeout, and the connection closes.",
  },
  'server.body_min_bytes_per_s': {
    type: 'integer',
    default: 1024,
    min: 1,
    max: 1_073_741_824,
    description: "Slowest a request's body may arrive on average, counted after its first server.body_idle_timeout_s; a body that falls behind is answered 408 request_timeout, so a trickle of a byte now and then is cut however it is spaced.",
  },
  public_url: {
    type: 'url',
    default: null,
    nullable: true,
    description: 'Base of absolute links (poll_url, signed links); default http://<server.host>:<port>.',
  },
  dev: {
    type: 'boolean',
    default: false,
    description: 'Development mode: callbacks and links may use http and loopback or private addresses.',
  },
  'log.level': {
    type: 'enum',
    default: 'info',
    values: ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'],
    description: 'Minimum level of the JSON log lines.',
  },

  'limits.max_concurrent_runs': {
    type: 'integer',
    default: 4,
    min: 1,
    max: 1000,
    description: 'Live runs executing at once, in total and per organisation; a free slot goes to the waiting organisation with the fewest running runs.',
  },
  'limits.max_concurrent_test_runs': {
    type: 'integer',
    default: 4,
    min: 1,
    max: 1000,
    description: 'Test-mode runs executing at once, in total and per organisation; they take no slot of limits.max_concurrent_runs (a test-mode run starts no sandbox).',
  },
  'limits.max_pending_runs': { type: 'integer', default: 100, min: 1, max: 1_000_000, description: 'Queued plus running runs an organisation may have before POST runs answers 429.' },
  'limits.run_timeout_s': { type: 'integer', default: 600, min: 1, max: 86_400, description: 'Longest a run may execute; a job or run may override it.' },
  'limits.max_steps': { type: 'integer', default: 50, min: 1, max: 1000, description: 'Most model calls one run may make.' },
  'limits.requests_per_minute': { type: 'integer', default: 1200, min: 1, max: 1_000_000, description: 'Requests one API key may make per minute before 429 rate_limited.' },
  'run_files.max_count': { type: 'integer', default: 100, min: 1, max: 10_000, description: "Most files (browser downloads and files under /workspace/out/) one run may return; one more fails the run (timeout), naming the file." },
  'run_files.max_total_mb': { type: 'integer', default: 500, min: 1, max: 1_000_000, description: "Most megabytes (MiB) of files one run may return, together; a download that would pass it is stopped there and fails the run (timeout), naming the file." },
  'profiles.max_state_kb': {
    type: 'integer',
    default: 1024,
    min: 1,
    max: 65_536,
    description: "Largest browser state (cookies and each site's storage) one profile may hold, in KiB; a run's larger state is not saved (a warning says so), an import is 413.",
  },
  'profiles.max_per_org': { type: 'integer', default: 100, min: 1, max: 100_000, description: 'Most profiles (saved logins) one organisation may have; one more is 402 profile_quota_exceeded.' },
  'limits.org_daily_cap_usd': { type: 'number', default: 100, min: 0, description: 'Spend an organisation may incur per UTC day, in USD.' },
  'limits.max_attempts': { type: 'integer', default: 2, min: 1, max: 10, description: 'Attempts a run gets when the daemon dies under it.' },
  'evals.max_parallel': {
    type: 'integer',
    default: 2,
    min: 1,
    max: 1000,
    description: "Runs of an organisation's evals queued or running at once, all its evals together (an eval's max_parallel may ask for fewer); keep it below limits.max_concurrent_runs so that its other runs keep slots.",
  },
  'human.timeout_s': {
    type: 'integer',
    default: 900,
    min: 1,
    max: 604_800,
    description: "Longest a run's agent waits for a person it asked (request_human) before the run fails; a job or run may override it.",
  },
  'human.trust_unauthenticated_email': {
    type: 'boolean',
    default: false,
    description:
      "Let a reply from a run's human_email answer its question without an aligned DKIM or SPF pass, for a test installation whose mail is not authenticated: anyone who can send mail can then answer as that address. Never on an installation that receives mail from elsewhere.",
  },
  'limits.lease_s': { type: 'integer', default: 30, min: 2, max: 3600, description: 'Lease a worker holds on a running run; renewed at a third of it.' },
  'limits.schema_check_ms': {
    type: 'integer',
    default: 2000,
    min: 10,
    max: 60_000,
    description: "Longest compiling a caller's input_schema or output_schema, or checking data against one, may take (in a worker thread); beyond it: 400 schema_too_complex.",
  },

  'billing.sandbox_usd_per_s': { type: 'number', default: 0.00005, min: 0, description: 'Price of one sandbox second, in USD.' },
  ...modelPriceKeys(),

  'models.provider': { type: 'enum', default: 'anthropic', values: MODEL_PROVIDERS, description: 'Which model API runs use.' },
  ...providerModelKeys(),
  'models.max_tokens': { type: 'integer', default: 4096, min: 256, max: 128_000, description: 'max_tokens of each model call.' },
  'computer.display': {
    type: 'enum',
    default: DEFAULT_COMPUTER_DISPLAY,
    values: COMPUTER_DISPLAYS,
    description: "Size of the screenshots a run in the computer action space shows its model, in pixels: the 1280x800 viewport, or it scaled down (fewer image tokens, less detail); the model's coordinates are in these.",
  },
  'anthropic.base_url': { type: 'url', default: null, nullable: true, description: 'Messages API base URL; ANTHROPIC_BASE_URL also sets it.' },
  'openai.base_url': { type: 'url', default: null, nullable: true, description: 'OpenAI-compatible endpoint (e.g. http://127.0.0.1:11434/v1 for Ollama); OPENAI_BASE_URL also sets it.' },

  'sandbox.driver': { type: 'enum', default: 'auto', values: ['auto', 'docker', 'local'], description: 'Where runs execute: docker, local, or auto (docker when an engine and the image are available).' },
  'sandbox.image': { type: 'string', default: 'errand-sandbox:latest', description: 'Image of the docker sandbox.' },
  'sandbox.warm_pool_size': { type: 'integer', default: 2, min: 0, max: 64, description: 'Started docker containers kept ready for the next runs.' },
  'sandbox.warm_pool_browser': {
    type: 'boolean',
    default: true,
    description: "Pooled docker containers start their Chromium before a run takes them, so the run's first browser action only navigates; `false` saves Chromium's memory in each idle pooled container.",
  },
  'sandbox.runtime': {
    type: 'string',
    default: null,
    nullable: true,
    description: "OCI runtime of docker sandboxes, by the name the engine registered it under (runsc: gVisor, a kernel of its own between task code and the host; docs/operations.md says how to register it); null: the engine's default (runc).",
  },
  'sandbox.hosts': {
    type: 'json-object',
    default: null,
    nullable: true,
    description:
      'Docker engines sandboxes run on, by host name: {url (unix://, tcp:// or ssh://), tls: {ca, cert, key} (file paths, tcp://), ssh: {key, known_hosts} (file paths, ssh://: the private key, else the ssh-agent; the known_hosts file the host key must be in, default ~/.ssh/known_hosts), capacity: {runs, memory_mb}, labels, runtime, firewall: "auto" | "manual" | "off"}; null: the local engine alone (docs/scale-out.md).',
  },
  'sandbox.host_check_ms': {
    type: 'integer',
    default: 5000,
    min: 100,
    max: 600_000,
    description: 'How often each of sandbox.hosts is pinged; one that does not answer within this time is marked down and its runs re-queued.',
  },
  'sandbox.memory_mb': { type: 'integer', default: 2048, min: 128, max: 262_144, description: 'Memory limit of a sandbox container.' },
  'sandbox.cpus': { type: 'number', default: 1, min: 0.1, max: 64, description: 'CPU limit of a sandbox container.' },
  'sandbox.pids_limit': { type: 'integer', default: 512, min: 16, max: 65_536, description: 'Process limit of a sandbox container.' },
  'sandbox.code_timeout_s': { type: 'integer', default: 60, min: 1, max: 3600, description: 'Longest one code tool call may run.' },
  'recording.enabled': {
    type: 'boolean',
    default: true,
    description: "Record every browser run (a Playwright trace and a WebM video, kept as the run's artifacts); false turns it off for every run, whatever its job or request says.",
  },
  'sandbox.egress_proxy': {
    type: 'string',
    default: null,
    nullable: true,
    secret: true,
    description: 'Proxy every sandbox leaves through unless its run names one: http://, https:// or socks5://[user:password@]host:port; never shown.',
  },
  'sandbox.chromium_path': { type: 'string', default: '/usr/bin/chromium', description: 'Chromium used by the local driver.' },

  'webhooks.timeout_s': { type: 'integer', default: 15, min: 1, max: 120, description: 'A delivery not answered 2xx within this is a failed attempt.' },
  'webhooks.retry_schedule_s': {
    type: 'number-list',
    default: '0,5,300,1800,7200,18000,36000,50400,72000,86400',
    description: 'Delay before each attempt, in seconds, comma-separated; jitter of up to 10% is added.',
  },
  'webhooks.allow_private_targets': { type: 'boolean', default: false, description: 'Let webhook targets be http, loopback, private or link-local (implied by dev).' },
  'dns.servers': {
    type: 'string',
    default: null,
    nullable: true,
    description: "DNS servers of every lookup: hosts of callback, webhook and MCP URLs, SPF, DKIM, DMARC and MX records, SMTP clients' names; comma-separated ip or ip:port; default the system's.",
  },

  'events.heartbeat_s': {
    type: 'integer',
    default: 15,
    min: 1,
    max: 300,
    description: 'Interval of the comment lines that keep idle event streams open through proxies; streams also look for events other processes appended.',
  },
  'events.streams_per_key': { type: 'integer', default: 50, min: 1, max: 100_000, description: 'Event streams (GET /v1/events, GET /v1/runs/{id}/events) one API key may hold open; one more answers 429 too_many_streams.' },
  'events.streams_per_org': { type: 'integer', default: 200, min: 1, max: 100_000, description: 'Event streams one organisation may hold open, across its keys; one more answers 429 too_many_streams.' },
  'mcp.run_wait_s': { type: 'integer', default: 45, min: 0, max: 3600, description: 'Longest the MCP tools run_task and run_job wait for their run before answering with its task id.' },
  'mcp.max_sessions': { type: 'integer', default: 1000, min: 1, max: 100_000, description: 'MCP sessions open at once in the installation; an initialize beyond them closes an idle session of the same caller, or answers 503.' },
  'mcp.sessions_per_key': {
    type: 'integer',
    default: 50,
    min: 1,
    max: 100_000,
    description: 'MCP sessions one API key (with the OAuth grants acting under it) may hold; beyond them its least recently used idle session is closed, or the initialize answers 429.',
  },
  'mcp.sessions_per_org': {
    type: 'integer',
    default: 100,
    min: 1,
    max: 100_000,
    description: 'MCP sessions one organisation may hold; beyond them its least recently used idle session is closed, or the initialize answers 429.',
  },
  'mcp.session_idle_s': { type: 'integer', default: 1800, min: 1, max: 604_800, description: 'An MCP session with no open request or stream for this long is closed.' },
  'mcp.allowed_origins': { type: 'string', default: null, nullable: true, description: "Browser origins (scheme://host:port, comma-separated) besides public_url's that may call /mcp." },
  'mcp.access_token_ttl_s': { type: 'integer', default: 3600, min: 1, max: 86_400, description: 'Lifetime of an MCP OAuth access token.' },
  'mcp.refresh_token_ttl_s': { type: 'integer', default: 2_592_000, min: 1, max: 31_536_000, description: 'Lifetime of an MCP OAuth refresh token; each refresh replaces it with a new one.' },
  'mcp.code_ttl_s': { type: 'integer', default: 60, min: 1, max: 600, description: 'Lifetime of an MCP OAuth authorization code.' },
  'mcp.consent_ttl_s': { type: 'integer', default: 600, min: 10, max: 3600, description: 'How long a sign-in on the MCP consent page, and its one-time approval code, stay valid.' },
  'mcp.registrations_per_hour': {
    type: 'integer',
    default: 60,
    min: 1,
    max: 1_000_000,
    description: 'OAuth client registrations (POST /oauth/register, open to anyone) one client address may make per hour, an IPv6 /64 counting as one address; one more answers 429.',
  },
  'mcp.max_unused_clients': {
    type: 'integer',
    default: 1000,
    min: 1,
    max: 1_000_000,
    description: 'Registered OAuth clients nobody has signed in with yet that are kept; registering one more deletes the oldest of them.',
  },
  'connections.mcp_connect_timeout_s': { type: 'integer', default: 10, min: 1, max: 120, description: 'Longest connecting to an MCP server (initialize and tools/list) may take.' },
  'connections.mcp_call_timeout_s': { type: 'integer', default: 60, min: 1, max: 3600, description: 'Longest one MCP tool call may take before the run goes on without it.' },
  'oauth.providers': {
    type: 'json-object',
    default: null,
    nullable: true,
    secret: true,
    description: 'Providers of hosted connect, by name: {authorize_url, token_url, client_id, client_secret, scopes}; github, gitlab, google and notion need only the client.',
  },
  'mail.relay_domain': { type: 'string', default: null, nullable: true, description: 'Domain of this installation\'s addresses (identities, inboxes, replies, run mailboxes); unset turns email off.' },
  'mail.transport': { type: 'enum', default: 'smtp', values: ['smtp', 'capture'], description: 'smtp sends through mail.smtp_url; capture keeps messages in the data directory and sends nothing (development only).' },
  'mail.smtp_url': {
    type: 'string',
    default: null,
    nullable: true,
    secret: true,
    description: 'Outbound relay: smtp://[user:password@]host:port (STARTTLS when offered, required with a password) or smtps:// (TLS); never logged.',
  },
  'mail.smtp_allow_plaintext_auth': {
    type: 'boolean',
    default: false,
    description: 'Send the password of an smtp:// mail.smtp_url to a relay that offers no STARTTLS; only for a relay on a loopback address (refused at start otherwise).',
  },
  'mail.smtp_timeout_s': { type: 'integer', default: 60, min: 1, max: 600, description: 'Longest wait for the relay at each step of a send; a send in flight holds its message this long, twice over.' },
  'mail.retry_schedule_s': {
    type: 'number-list',
    default: '60,300,900,1800,3600,7200,14400,28800,43200,86400',
    description: 'Delay before each retry of a recipient the relay deferred, in seconds; after the last the recipient failed.',
  },
  'mail.dkim_selector': { type: 'string', default: null, nullable: true, description: 'DKIM selector; with mail.dkim_private_key_path, every message is signed.' },
  'mail.dkim_private_key_path': { type: 'string', default: null, nullable: true, description: 'PEM file of the DKIM private key (RSA or Ed25519).' },
  'mail.dkim_domain': { type: 'string', default: null, nullable: true, description: 'd= of relay-domain signatures; default mail.relay_domain (a verified sending domain signs as itself).' },
  'mail.inbound_enabled': { type: 'boolean', default: true, description: 'Run the inbound SMTP server; off, sends carry no correlation Reply-To (reply_to.reason none).' },
  'mail.inbound_host': { type: 'string', default: '127.0.0.1', description: 'Address the inbound SMTP server binds to; 0.0.0.0 to receive from other machines.' },
  'mail.inbound_port': { type: 'integer', default: 2525, min: 0, max: 65535, description: 'Port of the inbound SMTP server; 0 picks a free one.' },
  'mail.mx_host': { type: 'string', default: null, nullable: true, description: 'Host name MX records must name to reach the inbound server, and its SMTP greeting; default mail.relay_domain.' },
  'mail.inbound_tls_cert_path': { type: 'string', default: null, nullable: true, description: 'PEM certificate (chain) for STARTTLS on the inbound server; STARTTLS is offered only with it and its key.' },
  'mail.inbound_tls_key_path': { type: 'string', default: null, nullable: true, description: 'PEM private key of mail.inbound_tls_cert_path.' },
  'mail.max_message_bytes': { type: 'integer', default: 26_214_400, min: 1024, max: 1_073_741_824, description: 'Largest inbound message; beyond it the server answers 552.' },
  'mail.inbound_max_clients': { type: 'integer', default: 200, min: 1, max: 100_000, description: 'SMTP connections open at once, from all clients.' },
  'mail.inbound_connections_per_ip': { type: 'integer', default: 20, min: 1, max: 100_000, description: 'SMTP connections one client address may hold open at once; more are answered 421.' },
  'mail.inbound_messages_per_minute': { type: 'integer', default: 600, min: 1, max: 10_000_000, description: 'Messages one client address may send per minute; more are answered 451 (try later).' },
  'mail.daily_send_cap': { type: 'integer', default: 1000, min: 0, max: 100_000_000, description: 'Recipients an organisation may send to per UTC day; beyond it POST emails answers 400 send_cap_reached.' },
  'mail.max_recipients': { type: 'integer', default: 50, min: 1, max: 10_000, description: 'Recipients (to, cc and bcc together) of one message.' },
  'retention.runs_days': { type: 'integer', default: 30, min: 0, max: 36_500, description: 'Days a finished run is kept, with its steps and spend entries, counted from its creation; 0 keeps runs forever.' },
  'retention.events_days': { type: 'integer', default: 30, min: 0, max: 36_500, description: 'Days an entry of the event log (what live streams replay) is kept; 0 keeps them forever.' },
  'retention.artifacts_days': { type: 'integer', default: 7, min: 0, max: 36_500, description: "Days a screenshot, recording, trace or run's file is kept, with its file; its links expire when it goes. 0 keeps them forever." },
  'retention.webhook_deliveries_days': { type: 'integer', default: 30, min: 0, max: 36_500, description: 'Days a webhook delivery that is no longer retried is kept, with its attempts; 0 keeps them forever.' },
  'retention.emails_days': { type: 'integer', default: 30, min: 0, max: 36_500, description: 'Days an email is kept: a sent one, once no longer queued, with its recipients; a received one with its attachments and their files. 0 keeps them forever.' },
  'files.max_mb': { type: 'integer', default: 100, min: 1, max: 1_048_576, description: 'Largest file one upload (POST /v1/files) may hold, in MiB; a larger one is answered 413 file_too_large.' },
  'files.org_quota_mb': {
    type: 'integer',
    default: 2048,
    min: 1,
    max: 104_857_600,
    description: 'MiB of uploaded files an organisation may keep at once; an upload that would go beyond is answered 402 file_quota_exceeded.',
  },
  'files.max_uploads_per_key': {
    type: 'integer',
    default: 4,
    min: 1,
    max: 10_000,
    description: 'Uploads (POST /v1/files) one API key may have in flight at once; one more is answered 429 too_many_uploads, before its body is read.',
  },
  'retention.interval_min': { type: 'integer', default: 60, min: 1, max: 1440, description: 'Minutes between the daemon\'s retention passes; the first runs when it starts.' },

  'metrics.port': { type: 'integer', default: null, nullable: true, min: 0, max: 65535, description: 'Port of GET /metrics (Prometheus text format), a listener apart from the API; unset: no metrics. 0 picks a free one.' },
  'metrics.host': { type: 'string', default: '127.0.0.1', description: 'Address the metrics listener binds to; it needs no API key, so keep it private.' },
  'tracing.endpoint': {
    type: 'url',
    default: null,
    nullable: true,
    description:
      'OTLP/HTTP URL the daemon posts its traces to (.../v1/traces); unset: no tracing. OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or OTEL_EXPORTER_OTLP_ENDPOINT win over it.',
  },
  'tracing.protocol': { type: 'enum', default: 'http/protobuf', values: ['http/protobuf', 'http/json'], description: 'OTLP encoding of exported traces; OTEL_EXPORTER_OTLP_PROTOCOL wins over it.' },
  'tracing.headers': {
    type: 'string',
    default: null,
    nullable: true,
    secret: true,
    description: 'Headers sent with every trace export, key=value pairs separated by commas (a backend\'s API key); never shown. OTEL_EXPORTER_OTLP_HEADERS wins over it.',
  },
  'tracing.service_name': { type: 'string', default: 'errand', description: 'service.name of the traces; OTEL_SERVICE_NAME wins over it.' },
  'tracing.timeout_ms': { type: 'integer', default: 10_000, min: 1, max: 600_000, description: 'How long one export of spans may take; OTEL_EXPORTER_OTLP_TIMEOUT wins over it.' },
  'tracing.capture_content': {
    type: 'boolean',
    default: false,
    description:
      "Spans also hold what the agent read and wrote: the run's prompt, tool inputs and results, the model's answers (masked of the run's secrets, cut to 4 KiB each). Off: ids, names, counts, times and outcomes only. See docs/operations.md, Traces, for the risk.",
  },
  'log.file': { type: 'string', default: null, nullable: true, description: 'Write the JSON log to this file, rotated by size, instead of stderr; errand daemon start uses <home>/errandd.log.' },
  'log.max_size_mb': { type: 'integer', default: 64, min: 1, max: 65_536, description: 'Size at which the log file is rotated to <file>.1.' },
  'log.max_files': { type: 'integer', default: 5, min: 1, max: 1000, description: 'Rotated log files kept (<file>.1 to <file>.N); older ones are deleted.' },
} as const satisfies Record<string, KeySpec>;

export type ConfigKey = keyof typeof CONFIG_KEYS;

/** `models.<alias>`: one key per model alias, from the model table. */
function providerModelKeys(): { readonly [K in ProviderModelKey]: { type: 'string'; default: string; description: string } } {
  return Object.fromEntries(
    MODEL_ALIASES.map((alias) => [
      providerModelKey(alias),
      { type: 'string', default: MODEL_DEFAULTS[alias].providerModel, description: `Provider model id behind the ${alias} alias.` },
    ]),
  ) as { [K in ProviderModelKey]: { type: 'string'; default: string; description: string } };
}

type PriceSpec = { type: 'number'; default: number; min: 0; description: string };

/** `billing.<alias>.input_usd_per_mtok` and `..._output_...`: the prices of each model alias, from the model table. */
function modelPriceKeys(): { readonly [K in InputPriceKey | OutputPriceKey]: PriceSpec } {
  return Object.fromEntries(
    MODEL_ALIASES.flatMap((alias) => [
      [inputPriceKey(alias), { type: 'number', default: MODEL_DEFAULTS[alias].inputUsdPerMTok, min: 0, description: `${alias} input price per million tokens, USD.` }],
      [outputPriceKey(alias), { type: 'number', default: MODEL_DEFAULTS[alias].outputUsdPerMTok, min: 0, description: `${alias} output price per million tokens, USD.` }],
    ]),
  ) as { [K in InputPriceKey | OutputPriceKey]: PriceSpec };
}

type ValueOf<S extends KeySpec> = S['type'] extends 'integer' | 'number'
  ? number
  : S['type'] extends 'boolean'
    ? boolean
    : S['type'] extends 'number-list'
      ? number[]
      : S['type'] extends 'json-object'
        ? Readonly<Record<string, unknown>> | null
        : S extends { nullable: true }
        ? string | null
        : string;

/** A loaded, validated configuration: one typed value per key. */
export type Config = { readonly [K in ConfigKey]: ValueOf<(typeof CONFIG_KEYS)[K]> };

export function envName(key: string): string {
  return `ERRAND_${key.toUpperCase().replace(/\./g, '_')}`;
}

/** The keys that are operator secrets (`secret: true`): everything about where they may be and how they show derives from this. */
export const SECRET_KEYS: readonly ConfigKey[] = (Object.entries(CONFIG_KEYS) as [ConfigKey, KeySpec][]).filter(([, spec]) => spec.secret === true).map(([key]) => key);

export function isSecretKey(key: string): key is ConfigKey {
  return (SECRET_KEYS as readonly string[]).includes(key);
}

/** `ERRAND_<KEY>_FILE`: a file holding a secret key's value (systemd credentials, Docker secrets). */
export function fileEnvName(key: ConfigKey): string {
  return `${envName(key)}_FILE`;
}
