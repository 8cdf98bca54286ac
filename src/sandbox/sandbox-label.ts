import { InvalidRequestError } from '../errors.js';
import type { SandboxDriver } from './driver.js';

/**
 * The check of a run's or job's `sandbox_label` (issue 26): a label no host of `sandbox.hosts` has would leave its
 * runs queued for ever, so it is refused when the run or job is made (400 unknown_sandbox_label).
 */
export function sandboxLabelCheck(driver: Pick<SandboxDriver, 'hasLabel'>): (label: string) => void {
  return (label) => {
    if (driver.hasLabel(label)) return;
    throw new InvalidRequestError('unknown_sandbox_label', `No sandbox host has the label ${JSON.stringify(label)} (the operator's sandbox.hosts names each host's labels)`, {
      param: 'sandbox_label',
    });
  };
}
