import { listResponse, signedLinkQuery, timestamp } from '../http-schemas/common.js';

const errorResponse = { $ref: 'ErrorResponse#' } as const;

/** One of a run's files, as the envelope's `files`, GET /v1/runs/{id}/files and the MCP tool give it. */
export const runFileSchema = {
  type: 'object',
  required: ['name', 'size', 'sha256', 'content_type', 'url', 'expires_at'],
  properties: {
    name: { type: 'string', description: 'The sanitised, unique name it is served and saved under (docs/api.md, Run files).' },
    size: { type: 'integer', description: 'Bytes.' },
    sha256: { type: 'string', description: 'SHA-256 of its bytes, lower-case hex.' },
    content_type: { type: 'string', description: "By its name's extension; application/octet-stream when unknown." },
    url: { type: 'string', description: 'Signed download link, usable without an API key until expires_at; served as an attachment.' },
    expires_at: { ...timestamp, description: 'When url stops working: 7 days from when it was made, or when retention removes the file if sooner.' },
  },
} as const;

export const runFilesSchema = {
  type: 'array',
  items: runFileSchema,
  description: "The run's files (issue 23): what its browser downloaded and its code wrote under /workspace/out/, kept when it ended; [] until then, and for a run with none.",
} as const;

/** The path of a file's signed link: the run, and the file's own `art_` id. */
const fileParams = {
  type: 'object',
  required: ['id', 'file'],
  additionalProperties: false,
  properties: {
    id: { type: 'string', minLength: 1, maxLength: 128, description: 'A `run_` id.' },
    file: { type: 'string', minLength: 1, maxLength: 128, description: 'The file: the `art_` id its signed link names.' },
  },
} as const;

export const runFileRouteSchemas = {
  list: {
    params: {
      type: 'object',
      required: ['id'],
      additionalProperties: false,
      properties: { id: { type: 'string', minLength: 1, maxLength: 128, description: 'A `run_` id.' } },
    },
    response: { 200: listResponse(runFileSchema), 404: errorResponse },
  },
  download: {
    params: fileParams,
    // Optional here so that a link without them is a 403 (not signed) rather than a 400, as for artifacts.
    querystring: signedLinkQuery,
    response: {
      200: { description: 'The file, as an attachment under its name.', content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } },
      403: errorResponse,
      404: errorResponse,
      410: errorResponse,
    },
  },
} as const;
