import type { Resources } from '../resources.js';
import type { Subsystem } from '../subsystem.js';
import { RetentionJob } from './retention-job.js';
import { RetentionService } from './retention-service.js';

/** The background purge of old history, every `retention.interval_min`. */
export function retentionSubsystem(resources: Resources): Subsystem {
  const retentionLogger = resources.logger.child({ component: 'retention' });
  const retention = new RetentionJob(new RetentionService({ ...resources, logger: retentionLogger }), {
    intervalMs: resources.config['retention.interval_min'] * 60_000,
    logger: retentionLogger,
  });
  return {
    name: 'retention',
    services: {},
    start: () => retention.start(),
    close: () => retention.close(),
  };
}
