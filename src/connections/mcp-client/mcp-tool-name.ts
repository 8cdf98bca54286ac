import { createHash } from 'node:crypto';

/** Model APIs take tool names of letters, digits, _ and -, at most 64 long. */
const TOOL_NAME_LIMIT = 64;

/** `<connection>__<tool>` in the characters model APIs accept, shortened with a hash when too long, unique per connection. */
export function uniqueToolName(connection: string, tool: string, taken: Set<string>): string {
  let name = `${connection}__${tool.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  if (name.length > TOOL_NAME_LIMIT || taken.has(name)) {
    const hash = createHash('sha256').update(tool).digest('hex').slice(0, 8);
    name = `${name.slice(0, TOOL_NAME_LIMIT - 9)}_${hash}`;
  }
  taken.add(name);
  return name;
}
