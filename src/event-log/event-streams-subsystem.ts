import type { Resources } from '../resources.js';
import type { RunsService } from '../runs/runs-service.js';
import type { Subsystem } from '../subsystem.js';
import type { EventLog } from './event-log.js';
import { EventStreams } from './event-streams.js';

/** The live streams of the event log, with the one timer that sends every stream its heartbeat. */
export function eventStreamsSubsystem(deps: { resources: Resources; eventLog: EventLog; runs: RunsService }): Subsystem<{ eventStreams: EventStreams }> {
  const { resources, runs } = deps;
  const eventStreams = new EventStreams({
    log: deps.eventLog,
    events: resources.events,
    heartbeatMs: resources.config['events.heartbeat_s'] * 1000,
    streamsPerKey: resources.config['events.streams_per_key'],
    streamsPerOrg: resources.config['events.streams_per_org'],
    runStatus: (orgId, runId) => runs.row(orgId, runId).status,
    logger: resources.logger.child({ component: 'event-streams' }),
  });
  return {
    name: 'event-streams',
    services: { eventStreams },
    start: () => eventStreams.start(),
    // Open streams would hold the API's server open; their clients reconnect with Last-Event-ID.
    close: () => eventStreams.close(),
  };
}
