import { nullableString, timestamp } from '../http-schemas/common.js';

const nullableBoolean = { type: ['boolean', 'null'] } as const;

export const statusSchema = {
  type: 'object',
  required: ['object', 'version', 'started_at', 'model_provider', 'sandbox', 'spend', 'runs', 'email'],
  properties: {
    object: { type: 'string', const: 'status' },
    version: { type: 'string' },
    started_at: timestamp,
    model_provider: {
      type: 'object',
      required: ['name', 'configured', 'problem', 'base_url', 'reachable', 'key_accepted', 'detail', 'checked_at'],
      properties: {
        name: { type: 'string', enum: ['anthropic', 'openai'], description: 'models.provider' },
        configured: { type: 'boolean', description: 'Whether the daemon has the key or base URL the provider needs.' },
        problem: { ...nullableString, description: 'What is missing, naming the setting; null when configured.' },
        base_url: { ...nullableString, description: 'Where model calls go, without credentials.' },
        reachable: { ...nullableBoolean, description: 'Whether the API answered a request for its model list (no tokens spent); null when not configured.' },
        key_accepted: { ...nullableBoolean, description: 'Whether it accepted the key; null when that could not be told.' },
        detail: { type: 'string' },
        checked_at: {
          ...nullableString,
          format: 'date-time',
          description: 'When the model API was asked; its answer stands for 30 s, for every caller. Null when not asked.',
        },
      },
    },
    sandbox: {
      type: 'object',
      required: ['driver', 'isolated', 'image', 'runtime', 'warm_pool', 'firewall', 'hosts'],
      properties: {
        driver: { type: 'string', enum: ['local', 'docker'] },
        isolated: { type: 'boolean', description: "false for the local driver: task code runs as the daemon's user." },
        image: nullableString,
        runtime: { ...nullableString, description: 'docker: the OCI runtime sandboxes run under (runc, or runsc for gVisor); null for the local driver.' },
        warm_pool: {
          type: ['object', 'null'],
          required: ['size', 'ready'],
          properties: { size: { type: 'integer' }, ready: { type: 'integer' } },
        },
        firewall: {
          type: ['object', 'null'],
          required: ['installed', 'detail'],
          properties: { installed: { type: 'boolean' }, detail: { type: 'string' } },
        },
        hosts: {
          type: 'array',
          description: 'Every Docker engine sandboxes run on (sandbox.hosts; the one local engine without it); [] for the local driver.',
          items: {
            type: 'object',
            required: ['name', 'url', 'state', 'problem', 'capacity', 'load', 'pool', 'runtime', 'labels', 'firewall'],
            properties: {
              name: { type: 'string' },
              url: { type: 'string', description: 'The engine, without credentials.' },
              state: { type: 'string', enum: ['up', 'down'], description: 'down: it did not answer its last check, and gets no runs.' },
              problem: {
                ...nullableString,
                description:
                  'Why it is down, as its last check found and what to do about it (no answer, an SSH host key not in known_hosts or changed, the sandbox image missing, its firewall missing); null when up. Never holds key material beyond a public key fingerprint.',
              },
              capacity: { type: 'object', required: ['runs', 'memory_mb'], properties: { runs: { type: 'integer' }, memory_mb: { type: 'integer' } } },
              load: { type: 'object', required: ['runs', 'memory_mb'], properties: { runs: { type: 'integer' }, memory_mb: { type: 'integer' } } },
              pool: { type: 'object', required: ['size', 'ready'], properties: { size: { type: 'integer' }, ready: { type: 'integer' } } },
              runtime: { type: 'string', description: 'The OCI runtime its sandboxes run under (runc, runsc).' },
              labels: { type: 'array', items: { type: 'string' } },
              firewall: {
                type: 'object',
                required: ['required', 'installed', 'detail'],
                properties: {
                  required: { type: 'boolean', description: 'false: the operator opted this host out of the firewall by name.' },
                  installed: { ...nullableBoolean, description: 'Whether its sandbox firewall rules are in place; null when not checked.' },
                  detail: nullableString,
                },
              },
            },
          },
        },
      },
    },
    spend: {
      type: 'object',
      required: ['today_usd', 'daily_cap_usd'],
      properties: { today_usd: { type: 'number' }, daily_cap_usd: { type: 'number' } },
      description: "The caller's organisation: its spend today (UTC) and its daily cap.",
    },
    runs: {
      type: 'object',
      required: ['active', 'max_pending'],
      properties: {
        active: { type: 'integer', description: "The caller's organisation's queued plus running runs." },
        max_pending: { type: 'integer', description: 'How many it may have before POST /v1/runs answers 429.' },
      },
    },
    email: {
      type: 'object',
      required: ['relay_domain', 'sending', 'relay', 'receiving', 'mx_host', 'problem'],
      properties: {
        relay_domain: { ...nullableString, description: "mail.relay_domain: the domain of the installation's addresses; null when email is off." },
        sending: { type: 'string', enum: ['smtp', 'capture', 'off'], description: 'How mail leaves: through mail.smtp_url, kept in the data directory, or not at all.' },
        relay: { ...nullableString, description: "The relay's host:port, without credentials." },
        receiving: { ...nullableString, description: "Where the daemon's SMTP server takes mail (host:port); null when it receives none." },
        mx_host: { ...nullableString, description: 'The host MX records must name for mail to reach it (mail.mx_host).' },
        problem: { ...nullableString, description: 'What keeps email from working, naming the setting; null when nothing does.' },
      },
    },
  },
} as const;

export const statusRouteSchemas = { get: { response: { 200: statusSchema } } } as const;
