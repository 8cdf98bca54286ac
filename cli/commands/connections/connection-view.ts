import type { Errand, Connection } from '../../api.js';
import { UserError } from '../../cli-errors.js';
import type { CliContext } from '../../context.js';
import type { Column } from '../../output.js';

export const connectionColumns: Column<Connection>[] = [
  { header: 'ID', value: (c) => c.id },
  { header: 'NAME', value: (c) => c.name, max: 40 },
  { header: 'TYPE', value: (c) => (c.provider === null ? c.type : `${c.type} (${c.provider})`) },
  { header: 'STATUS', value: (c) => (c.is_enabled ? c.auth_status : `${c.auth_status}, disabled`) },
  { header: 'SCOPE', value: (c) => c.project_id ?? 'organisation' },
  { header: 'DETAIL', value: (c) => c.auth_detail, max: 60 },
];

export function printConnection(ctx: CliContext, c: Connection): void {
  ctx.out.result(c, () =>
    ctx.out.fields([
      ['id', c.id],
      ['name', c.name],
      ['type', c.type],
      ['provider', c.provider],
      ['scope', c.project_id ?? 'organisation'],
      ['enabled', c.is_enabled],
      ['status', c.auth_status],
      ['detail', c.auth_detail],
      ['checked', c.auth_checked_at],
      ['secret', c.has_secret ? 'set (never shown)' : 'none'],
      ['env var', c.env_var_name],
      ['url', c.url],
      ['transport', c.transport],
      ['headers', c.headers === null ? null : Object.entries(c.headers).map(([k, v]) => `${k}: ${v}`).join('; ')],
      ['token expires', c.expires_at],
      ['created', c.created_at],
      ['updated', c.updated_at],
    ]),
  );
}

/** A connection by id (`conn_...`) or by name; a name used in several scopes must be given as an id. */
export async function resolveConnection(api: Errand, ref: string): Promise<string> {
  if (/^conn_[0-9a-z]{26}$/.test(ref)) return ref;
  const matches: Connection[] = [];
  for await (const c of api.connections.list({ limit: 200 })) if (c.name === ref) matches.push(c);
  if (matches.length === 1) return matches[0]!.id;
  if (matches.length === 0) throw new UserError(`no connection named ${ref}`);
  throw new UserError(`${matches.length} connections are named ${ref} (${matches.map((c) => `${c.id} in ${c.project_id ?? 'the organisation'}`).join(', ')}); give the id`);
}
