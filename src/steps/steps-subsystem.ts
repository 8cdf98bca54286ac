import type { ArtifactsService } from '../artifacts/artifacts-service.js';
import type { EventAnnouncer } from '../event-log/event-announcer.js';
import type { Resources } from '../resources.js';
import type { Subsystem } from '../subsystem.js';
import type { StepEvents } from './run-recorder.js';
import { StepsService } from './steps-service.js';

/** A run's steps: GET /v1/runs/{id}/steps, and where attempts announce each step they record (`run.step`). */
export function stepsSubsystem(deps: { resources: Resources; artifacts: ArtifactsService; announcer: EventAnnouncer }): Subsystem<{ steps: StepsService; stepEvents: StepEvents }> {
  const linkScreenshot = (id: string): string | null => deps.artifacts.signedUrl(id);
  return {
    name: 'steps',
    services: { steps: new StepsService(deps.resources, linkScreenshot), stepEvents: { announcer: deps.announcer, linkScreenshot } },
  };
}
