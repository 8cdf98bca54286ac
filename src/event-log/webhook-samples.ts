import type { EventData, WebhookEventType } from './event-catalogue.js';

/** Ids of nothing: a sample names no real run, project, message or connection. */
const NONE = '00000000000000000000000000';

/** A run's final envelope, as a sample. */
function envelope(at: string): EventData<'run.completed'> {
  return {
    task_id: `run_${NONE}`,
    object: 'run',
    status: 'succeeded',
    result: { answer: 'A sample result' },
    confidence: 'high',
    evidence: { screenshot_url: null, matched_text: 'A sample result', checked_at: at, recording_url: null, trace_url: null },
    failure_reason: null,
    failure_code: null,
    failure_detail: null,
    warnings: [],
    usage: { duration_ms: 4200, input_tokens: 1800, output_tokens: 240, cost_usd: 0.009 },
    max_cost_usd: null,
    created_at: at,
    started_at: at,
    finished_at: at,
    job_id: null,
    project_id: `proj_${NONE}`,
    name: 'A sample run',
    model: 'sonnet',
    attempt: 1,
    progress: { steps: 3, last_action: 'finished' },
    waiting_for: null,
    live_url: null,
    files: [],
    mode: 'agent',
    sandbox: { label: null, host: null },
    action_space: 'dom',
  };
}

function connection(at: string): EventData<'connection.authenticated'> {
  return {
    id: `conn_${NONE}`,
    object: 'connection',
    name: 'sample',
    type: 'oauth',
    project_id: null,
    is_enabled: true,
    has_secret: true,
    env_var_name: 'SAMPLE_TOKEN',
    url: null,
    transport: null,
    headers: null,
    provider: 'sample',
    auth_status: 'authenticated',
    auth_detail: 'connected through hosted connect',
    auth_checked_at: at,
    expires_at: null,
    created_at: at,
    updated_at: at,
  };
}

/** An eval that ended, as a sample: three cases, two passed. */
function evalSummary(at: string, status: 'completed' | 'cancelled'): EventData<'eval.completed'> {
  return {
    id: `eval_${NONE}`,
    object: 'eval',
    job_id: `job_${NONE}`,
    status,
    replay: 'off',
    model: 'sonnet',
    prompt: null,
    settings: {},
    baseline_id: null,
    max_parallel: 2,
    totals: { cases: 3, passed: 2, failed: 1, errors: 0, skipped: 0, pending: 0, running: 0, pass_rate: 0.6667, duration_ms: 12_600, input_tokens: 5400, output_tokens: 720, cost_usd: 0.027 },
    created_at: at,
    started_at: at,
    finished_at: at,
  };
}

const metadata = { sample: true };

/**
 * A sample of the data of every event sent as a webhook, as its webhook carries it, stamped `at`: what
 * `errand webhooks test` sends. The compiler asks for one per webhook type, with the data its schema describes;
 * `test/event-log/webhook-samples.test.ts` checks each against the schema itself.
 */
const SAMPLES: { [T in WebhookEventType]: (at: string) => EventData<T> } = {
  'run.needs_human': (at) => ({
    run_id: `run_${NONE}`,
    waitpoint_id: `wp_${NONE}`,
    request_id: `hr_${NONE}`,
    kind: 'approve',
    question: 'Place the order for 2 items, 41.90 EUR in total? (a sample)',
    asked_at: at,
    asked_again_of: null,
    expires_at: at,
    live_url: null,
    answer_url: `https://errand.example.com/v1/runs/run_${NONE}/human`,
  }),
  'run.human_answered': (at) => ({
    run_id: `run_${NONE}`,
    request_id: `hr_${NONE}`,
    kind: 'approve',
    answer: null,
    approved: true,
    note: 'Go ahead (a sample).',
    answered_by: `key key_${NONE}`,
    answered_via: 'api',
    answered_at: at,
  }),
  'run.completed': envelope,
  'run.failed': (at) => ({
    ...envelope(at),
    status: 'failed',
    result: null,
    confidence: null,
    evidence: null,
    failure_reason: 'not_found',
    failure_detail: 'The page the task names does not exist (a sample).',
    progress: { steps: 3, last_action: 'finished' },
  }),
  'run.cancelled': (at) => ({ ...envelope(at), status: 'cancelled', result: null, confidence: null, evidence: null, progress: { steps: 1, last_action: 'cancelled' } }),
  'email.received': (at) => ({
    message_id: `msg_${NONE}`,
    in_reply_to: `msg_${NONE.slice(0, -1)}1`,
    correlation_token: 'sample0000000000000000000000',
    from: 'ada@example.com',
    to: ['sample+sample0000000000000000000000@example.com'],
    subject: 'Re: A sample',
    text: 'Thanks, that works for me.\n\nOn a sample day, you wrote:\n> A sample message\n',
    html: '<p>Thanks, that works for me.</p><blockquote>A sample message</blockquote>',
    reply_text: 'Thanks, that works for me.',
    received_at: at,
    metadata,
    object: 'received_email',
    kind: 'reply',
    inbox_id: null,
    run_id: null,
    from_name: 'Ada Lovelace',
    message_id_header: '<sample@example.com>',
    in_reply_to_header: '<sent-sample@example.com>',
    auth: { spf: 'pass', dkim: 'pass', dmarc: 'pass', spf_domain: 'example.com', dkim_domains: ['example.com'], from_domain: 'example.com', dkim_aligned: true, spf_aligned: true },
    attachments: [],
    truncated: false,
  }),
  'email.bounced': (at) => ({
    message_id: `msg_${NONE}`,
    correlation_token: 'sample0000000000000000000000',
    recipient: 'gone@example.com',
    status: '5.1.1',
    diagnostic: 'smtp; 550 5.1.1 <gone@example.com>: no such user (a sample)',
    source: 'report',
    suppressed: true,
    bounced_at: at,
    metadata,
  }),
  'email.complained': (at) => ({
    message_id: `msg_${NONE}`,
    correlation_token: 'sample0000000000000000000000',
    recipient: 'annoyed@example.com',
    feedback_type: 'abuse',
    user_agent: 'SampleFBL/1.0',
    suppressed: true,
    complained_at: at,
    metadata,
  }),
  'connection.authenticated': connection,
  'connection.expired': (at) => ({ ...connection(at), auth_status: 'expired', auth_detail: 'the provider refused to refresh the token: connect again (a sample)' }),
  'eval.completed': (at) => evalSummary(at, 'completed'),
  'eval.cancelled': (at) => ({ ...evalSummary(at, 'cancelled'), totals: { ...evalSummary(at, 'cancelled').totals, passed: 1, failed: 0, skipped: 1, pass_rate: 0.3333 } }),
  'profile.signed_out': (at) => ({
    id: `prf_${NONE}`,
    object: 'profile',
    name: 'supplier-portal',
    has_state: true,
    origins: ['https://portal.example.com'],
    size_bytes: 2048,
    saved_at: at,
    saved_by_run_id: `run_${NONE}`,
    saved_via: 'run',
    last_used_at: at,
    last_used_by_run_id: `run_${NONE}`,
    check: { url: 'https://portal.example.com/account', text: 'Sign out', role: null, name: null },
    health: 'signed_out',
    health_detail: 'https://portal.example.com/login does not show the text "Sign out" (a sample)',
    checked_at: at,
    expires_at: null,
    created_at: at,
    updated_at: at,
  }),
};

/** The sample data of a webhook event, stamped `at` (RFC 3339). */
export function webhookSample(type: WebhookEventType, at: string): object {
  const sample: (at: string) => object = SAMPLES[type];
  return sample(at);
}
