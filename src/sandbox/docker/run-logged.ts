import { execa } from 'execa';

export type LogLine = (line: string) => void;

/** Runs a command, handing each line of its combined output to `onLog`; rejects with the command's failure. */
export async function runLogged(
  file: string,
  args: readonly string[],
  onLog: LogLine,
  options: { signal?: AbortSignal; cwd?: string } = {},
): Promise<void> {
  const subprocess = execa(file, args, {
    all: true,
    buffer: false,
    stdin: 'ignore',
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    ...(options.signal === undefined ? {} : { cancelSignal: options.signal }),
  });
  for await (const line of subprocess.iterable({ from: 'all' })) onLog(line);
  await subprocess;
}
