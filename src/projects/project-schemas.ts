import type { Validated } from '../http-schemas/validated.js';
import { deletedResponse, idParam, listQuery, listResponse, nullableString, timestamp } from '../http-schemas/common.js';

export const projectSchema = {
  type: 'object',
  required: ['id', 'object', 'name', 'description', 'is_default', 'created_at', 'updated_at'],
  properties: {
    id: { type: 'string' },
    object: { type: 'string', const: 'project' },
    name: { type: 'string' },
    description: nullableString,
    is_default: { type: 'boolean', description: 'True for the organisation\'s "API Runs" project, which cannot be deleted.' },
    created_at: timestamp,
    updated_at: timestamp,
  },
} as const;

const name = { type: 'string', minLength: 1, maxLength: 200 } as const;
const description = { type: ['string', 'null'], maxLength: 10_000 } as const;

export const createProjectBody = {
  type: 'object',
  required: ['name'],
  additionalProperties: false,
  properties: { name, description },
} as const;

export const updateProjectBody = {
  type: 'object',
  additionalProperties: false,
  properties: { name, description },
} as const;

export const projectRouteSchemas = {
  list: { querystring: listQuery('proj'), response: { 200: listResponse(projectSchema) } },
  create: { body: createProjectBody, response: { 201: projectSchema } },
  get: { params: idParam('proj'), response: { 200: projectSchema } },
  update: { params: idParam('proj'), body: updateProjectBody, response: { 200: projectSchema } },
  delete: { params: idParam('proj'), response: { 200: deletedResponse('project') } },
} as const;

export type CreateProjectBody = Validated<typeof createProjectBody>;
export type UpdateProjectBody = Validated<typeof updateProjectBody>;
