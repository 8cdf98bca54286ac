import { ErrorCode, McpError, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { Logger } from 'pino';
import { ErrandError } from '../../errors.js';
import { createAjv } from '../../json-schema/create-ajv.js';
import type { McpTool, McpToolContext } from './mcp-tool.js';
import { consentSections, type ConsentSection } from './tool-consent.js';
import { whenMissing } from '../../http-schemas/when-missing.js';

interface Entry {
  tool: McpTool<any>;
  validate: ValidateFunction;
}

/** How a tool's failure reads to the model: the REST API's error shape, so the same codes mean the same things. */
interface ToolErrorBody {
  error: { type: string; code: string; message: string; param?: string };
}

/**
 * The front door's tools by name: their listing, the check of a call's arguments against the tool's input schema,
 * and the call. Failures the caller can act on (bad arguments, a service's `ErrandError`: not found, over a cap,
 * too many runs) are tool results with `isError`, which the client's model reads, as the MCP specification asks;
 * a name that is no tool is a protocol error.
 */
export class McpToolRegistry {
  private readonly byName = new Map<string, Entry>();

  constructor(
    tools: McpTool<any>[],
    private readonly logger: Logger,
    /** Whether the caller's organisation is live or a test-mode twin (issue 25): every record a tool answers says so. */
    private readonly livemode: (orgId: string) => boolean,
  ) {
    // verbose: a missing argument's error reads its schema (whenMissing).
    const ajv = createAjv({ allErrors: false, coerceTypes: false, useDefaults: false, strict: false, verbose: true });
    for (const tool of tools) {
      if (this.byName.has(tool.name)) throw new Error(`two MCP tools are named ${tool.name}`);
      this.byName.set(tool.name, { tool, validate: ajv.compile(tool.inputSchema) });
    }
  }

  list(): Tool[] {
    return [...this.byName.values()].map(({ tool }) => ({
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: tool.inputSchema,
      annotations: tool.annotations,
    }));
  }

  /** What a grant lets a client do, from the same tools `list()` serves: what the consent page shows. */
  consent(): ConsentSection[] {
    return consentSections([...this.byName.values()].map(({ tool }) => tool));
  }

  async call(name: string, args: Record<string, unknown> | undefined, ctx: McpToolContext): Promise<CallToolResult> {
    const entry = this.byName.get(name);
    if (!entry) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}; tools/list names the tools`);
    const input = args ?? {};
    if (!entry.validate(input)) return failure(argumentError(entry.validate.errors![0]!));
    try {
      const result = withLivemode(await entry.tool.call(input, ctx), this.livemode(ctx.principal.orgId));
      return { content: [{ type: 'text', text: JSON.stringify(result, null, 2) }], structuredContent: result as Record<string, unknown> };
    } catch (err) {
      if (err instanceof ErrandError) {
        return failure({ error: { type: err.type, code: err.code, message: err.message, ...(err.param === undefined ? {} : { param: err.param }) } });
      }
      this.logger.error({ err, tool: name }, 'MCP tool failed');
      return failure({ error: { type: 'api_error', code: 'internal_error', message: 'Something went wrong on our side; the daemon log has the details' } });
    }
  }
}

/**
 * `livemode` on every record of a tool's answer, as the REST API puts it on every object (docs/api.md, Test mode):
 * each object with an `object` member other than a list's, nested ones included. The caller only ever sees its own
 * organisation's records, so its mode is theirs. A record that says it already is left as it is.
 */
function withLivemode<T>(value: T, livemode: boolean): T {
  if (Array.isArray(value)) return value.map((item: unknown) => withLivemode(item, livemode)) as T;
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [name, member] of Object.entries(value)) {
    out[name] = withLivemode(member, livemode);
    if (name === 'object' && typeof member === 'string' && member !== 'list' && !('livemode' in value)) out.livemode = livemode;
  }
  return out as T;
}

function failure(body: ToolErrorBody): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(body, null, 2) }], isError: true };
}

function argumentError(issue: ErrorObject): ToolErrorBody {
  const path = issue.instancePath.split('/').filter(Boolean).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (issue.keyword === 'additionalProperties') {
    const param = [...path, String(issue.params.additionalProperty)].join('.');
    return { error: { type: 'invalid_request_error', code: 'unknown_parameter', message: `Unknown argument '${param}'`, param } };
  }
  if (issue.keyword === 'required') {
    const missing = String(issue.params.missingProperty);
    const param = [...path, missing].join('.');
    return { error: { type: 'invalid_request_error', code: 'missing_parameter', message: `Missing required argument '${param}'${whenMissing(issue.parentSchema as { properties?: Record<string, unknown> } | undefined, missing)}`, param } };
  }
  const param = path.join('.');
  const allowed = Array.isArray(issue.params.allowedValues) ? `: ${issue.params.allowedValues.map((v) => JSON.stringify(v)).join(', ')}` : '';
  return {
    error: {
      type: 'invalid_request_error',
      code: 'invalid_arguments',
      message: `${param === '' ? 'The arguments' : `Argument '${param}'`} ${issue.message ?? 'is invalid'}${allowed}`,
      ...(param === '' ? {} : { param }),
    },
  };
}
