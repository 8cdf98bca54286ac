import type { Validated } from '../http-schemas/validated.js';
import { deletedResponse, idParam, idPattern, listQuery, listResponse, timestamp } from '../http-schemas/common.js';
import { MAX_FILE_NAME_BYTES } from './file-name.js';

/** Most input files one run may take. */
export const MAX_RUN_FILES = 20;

export const fileSchema = {
  type: 'object',
  required: ['id', 'object', 'name', 'size', 'sha256', 'content_type', 'created_at'],
  properties: {
    id: { type: 'string' },
    object: { type: 'string', const: 'file' },
    name: { type: 'string', description: 'The sanitised name: what a run sees under /workspace/in/.' },
    size: { type: 'integer', description: 'Bytes.' },
    sha256: { type: 'string', description: 'Hex SHA-256 of the content, computed while it was received.' },
    content_type: { type: 'string' },
    created_at: timestamp,
  },
} as const;

/** `files` on POST /v1/runs and POST /v1/jobs/{id}/runs: the run's input files, placed read-only in /workspace/in/. */
export const runFilesMember = {
  type: 'array',
  maxItems: MAX_RUN_FILES,
  items: { type: 'string', pattern: idPattern('file') },
  description: `Ids of uploaded files (POST /v1/files) placed read-only in the run's /workspace/in/ under their names, at most ${MAX_RUN_FILES}, no two of one name.`,
} as const;

export const uploadFileQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    name: {
      type: 'string',
      minLength: 1,
      maxLength: 1024,
      description: `The file's name (required for a raw body; for multipart it replaces the part's filename). Sanitised: directories, control and bidi characters dropped, at most ${MAX_FILE_NAME_BYTES} bytes.`,
    },
  },
} as const;

/** GET /v1/files: newest first; `sha256` finds the files of one content (what a client uploads once and reuses). */
export const fileListQuery = listQuery('file', {
  sha256: { type: 'string', pattern: '^[0-9a-f]{64}$', description: 'Only the files of this content: its hex SHA-256, lower case.' },
});

export const fileRouteSchemas = {
  upload: { querystring: uploadFileQuery, response: { 201: fileSchema } },
  list: { querystring: fileListQuery, response: { 200: listResponse(fileSchema) } },
  get: { params: idParam('file'), response: { 200: fileSchema } },
  content: { params: idParam('file') },
  delete: { params: idParam('file'), response: { 200: deletedResponse('file') } },
} as const;

export type UploadFileQuery = Validated<typeof uploadFileQuery>;
export type FileListQuery = Validated<typeof fileListQuery>;
