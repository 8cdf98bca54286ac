import type { AttemptParticipant } from '../attempt/attempt-participant.js';
import type { EventAnnouncer } from '../event-log/event-announcer.js';
import type { Resources } from '../resources.js';
import type { SandboxDriver } from '../sandbox/driver.js';
import type { SecretBox } from '../secrets/secret-box.js';
import type { Subsystem } from '../subsystem.js';
import { sandboxLoginChecker } from './profile-check.js';
import { profileParticipant } from './profile-participant.js';
import { ProfileStates } from './profile-state.js';
import { ProfilesService } from './profiles-service.js';

/** How often profiles whose expiry has come have their states erased. */
const EXPIRY_SWEEP_MS = 60_000;

export interface ProfileServices {
  /** The API's profiles, and what runs and the live view save through. */
  profiles: ProfilesService;
  /** Its part in each attempt: the run's profile loaded and checked before the agent, saved when it succeeds. */
  participant: AttemptParticipant;
}

/** Saved logins (docs/api.md, Profiles): states sealed under the master key, erased at their expiry by a timer. */
export function profilesSubsystem(deps: { resources: Resources; box: SecretBox; announcer: EventAnnouncer; driver: SandboxDriver }): Subsystem<ProfileServices> {
  const { resources } = deps;
  const profiles = new ProfilesService(resources, { states: new ProfileStates(deps.box), announcer: deps.announcer, checkLogin: sandboxLoginChecker(deps.driver) });
  let sweep: NodeJS.Timeout | null = null;
  const eraseExpired = (): void => {
    try {
      const erased = profiles.eraseExpired();
      if (erased > 0) resources.logger.info({ erased }, "erased the states of profiles whose expiry came");
    } catch (err) {
      resources.logger.error({ err }, 'could not erase expired profiles; trying again later');
    }
  };
  return {
    name: 'profiles',
    services: { profiles, participant: profileParticipant({ profiles, store: resources.store, clock: resources.clock }) },
    start() {
      eraseExpired();
      sweep = setInterval(eraseExpired, EXPIRY_SWEEP_MS);
      sweep.unref();
    },
    close() {
      if (sweep !== null) clearInterval(sweep);
      sweep = null;
    },
  };
}
