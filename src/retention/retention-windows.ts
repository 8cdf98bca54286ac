import type { Config } from '../config/schema.js';
import { IDEMPOTENCY_WINDOW_MS } from '../runs/idempotency-window.js';
import type { RetentionKindName } from '../store/retention-store.js';

const DAY_MS = 24 * 3600 * 1000;
/** An OAuth client nobody has signed in with is kept a day (docs/mcp.md): long enough to finish signing in. */
const UNUSED_CLIENT_MS = DAY_MS;

/**
 * How long rows of a kind are kept, in milliseconds from their creation (for sign-ins, from their expiry); null
 * keeps them forever.
 */
export function keepMs(kind: RetentionKindName, config: Config): number | null {
  switch (kind) {
    case 'runs':
    case 'evals':
      // An eval is read beside its runs (each case links one): it is kept as long as they are.
      return days(config['retention.runs_days']);
    case 'events':
      return days(config['retention.events_days']);
    case 'artifacts':
      return days(config['retention.artifacts_days']);
    case 'webhook_deliveries':
      return days(config['retention.webhook_deliveries_days']);
    case 'sent_emails':
    case 'received_emails':
      return days(config['retention.emails_days']);
    case 'idempotency_keys':
      // A promise of the API, not a setting.
      return IDEMPOTENCY_WINDOW_MS;
    case 'mcp_unused_clients':
      return UNUSED_CLIENT_MS;
    case 'mcp_sign_ins':
      // An expired sign-in can only be refused: it goes as soon as it has expired.
      return 0;
    default:
      return assertNever(kind);
  }
}

function days(n: number): number | null {
  return n === 0 ? null : n * DAY_MS;
}

function assertNever(value: never): never {
  throw new Error(`unknown retention kind ${String(value)}`);
}
