import { createTask } from 'node-cron';
import type { Schedule } from './schedule-schema.js';

/**
 * When a schedule fires next (from now), computed by node-cron's own matcher, the one the scheduler fires by; null
 * for a paused schedule or an expression node-cron refuses.
 */
export async function nextFiring(schedule: Pick<Schedule, 'cron' | 'timezone' | 'enabled'>): Promise<Date | null> {
  if (!schedule.enabled) return null;
  let task;
  try {
    task = createTask(schedule.cron, () => undefined, { timezone: schedule.timezone });
  } catch {
    return null;
  }
  try {
    return task.getNextRuns(1)[0] ?? null;
  } finally {
    await task.destroy();
  }
}
