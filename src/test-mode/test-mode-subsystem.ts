import type { Subsystem } from '../subsystem.js';
import { placeholderScreenshot } from './placeholder-page.js';
import { TestModeRunner, type TestModeRunnerDeps } from './test-mode-runner.js';
import type { Resources } from '../resources.js';

/** Test mode's attempts (docs/api.md, Test mode): the runner the wiring hands test-mode organisations' runs to. */
export function testModeSubsystem(deps: Omit<TestModeRunnerDeps, 'screenshot'> & { resources: Resources }): Subsystem<{ runner: TestModeRunner }> {
  const { resources, ...runnerDeps } = deps;
  return { name: 'test-mode', services: { runner: new TestModeRunner(resources, { ...runnerDeps, screenshot: placeholderScreenshot() }) } };
}
