import type { RunRow } from './runs-store.js';

/**
 * The columns of a run, in the order `runRow` reads them. Run rows are read raw (as arrays) and built here:
 * better-sqlite3 builds an object column by column through V8's API, looking up each column's name, and for a row
 * of 33 columns that took about as many instructions again as the read itself.
 */
export const RUN_COLUMNS =
  'id, org_id, key_id, project_id, job_id, name, source, prompt, inputs, model, output_schema, callback_url, connections, timeout_s, ' +
  'status, attempt, result, confidence, evidence, failure_reason, failure_detail, warnings, input_tokens, output_tokens, cost_usd, ' +
  'step_count, last_action, lease_owner, lease_expires_at, created_at, started_at, finished_at, updated_at';

export function runRow(v: unknown[]): RunRow {
  return {
    id: v[0] as RunRow['id'],
    org_id: v[1] as RunRow['org_id'],
    key_id: v[2] as RunRow['key_id'],
    project_id: v[3] as RunRow['project_id'],
    job_id: v[4] as RunRow['job_id'],
    name: v[5] as RunRow['name'],
    source: v[6] as RunRow['source'],
    prompt: v[7] as RunRow['prompt'],
    inputs: v[8] as RunRow['inputs'],
    model: v[9] as RunRow['model'],
    output_schema: v[10] as RunRow['output_schema'],
    callback_url: v[11] as RunRow['callback_url'],
    connections: v[12] as RunRow['connections'],
    timeout_s: v[13] as RunRow['timeout_s'],
    status: v[14] as RunRow['status'],
    attempt: v[15] as RunRow['attempt'],
    result: v[16] as RunRow['result'],
    confidence: v[17] as RunRow['confidence'],
    evidence: v[18] as RunRow['evidence'],
    failure_reason: v[19] as RunRow['failure_reason'],
    failure_detail: v[20] as RunRow['failure_detail'],
    warnings: v[21] as RunRow['warnings'],
    input_tokens: v[22] as RunRow['input_tokens'],
    output_tokens: v[23] as RunRow['output_tokens'],
    cost_usd: v[24] as RunRow['cost_usd'],
    step_count: v[25] as RunRow['step_count'],
    last_action: v[26] as RunRow['last_action'],
    lease_owner: v[27] as RunRow['lease_owner'],
    lease_expires_at: v[28] as RunRow['lease_expires_at'],
    created_at: v[29] as RunRow['created_at'],
    started_at: v[30] as RunRow['started_at'],
    finished_at: v[31] as RunRow['finished_at'],
    updated_at: v[32] as RunRow['updated_at'],
  };
}
