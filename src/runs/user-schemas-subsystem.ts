import type { Config } from '../config/schema.js';
import type { Subsystem } from '../subsystem.js';
import { UserSchemas } from './user-schemas.js';

/**
 * The worker thread that checks callers' JSON Schemas. Its own part, since both the API (creating runs and jobs)
 * and the engine (a run's output) use it: it closes after both.
 */
export function userSchemasSubsystem(config: Pick<Config, 'limits.schema_check_ms'>): Subsystem<{ schemas: UserSchemas }> {
  const schemas = new UserSchemas({ budgetMs: config['limits.schema_check_ms'] });
  return { name: 'schemas', services: { schemas }, close: () => schemas.close() };
}
