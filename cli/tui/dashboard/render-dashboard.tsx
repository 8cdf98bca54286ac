import { render } from 'ink';
import { Dashboard } from './dashboard.js';
import { FrameWriter } from './frame-writer.js';
import type { DashboardSource } from './source.js';

/** The alternate screen, as full-screen programs use it (the shell's scrollback is back untouched on exit), without a cursor. */
const ENTER = '\u001B[?1049h\u001B[?25l\u001B[2J';
const LEAVE = '\u001B[?25h\u001B[?1049l';

/** Runs the dashboard on this terminal until the user quits. */
export async function renderDashboard(source: DashboardSource, cliName: string): Promise<void> {
  const frames = new FrameWriter(process.stdout);
  process.stdout.write(ENTER);
  try {
    const app = render(<Dashboard source={source} cliName={cliName} />, {
      stdout: frames as unknown as NodeJS.WriteStream,
      debug: true,
      patchConsole: false,
      exitOnCtrlC: true,
    });
    await app.waitUntilExit();
  } finally {
    frames.destroy();
    process.stdout.write(LEAVE);
  }
}
