/**
 * What to tell the operator when the API cannot listen (#10): a sentence naming the address and the flag that
 * changes it, instead of a stack trace; null for failures that are not about the address.
 */
export function listenFailure(err: unknown, host: string, port: number): string | null {
  switch ((err as NodeJS.ErrnoException).code) {
    case 'EADDRINUSE':
      return `port ${port} is in use: use --port N or --port 0 (any free port), or set server.port`;
    case 'EACCES':
      return `cannot listen on port ${port}: permission denied (ports below 1024 need privileges); use --port N or --port 0`;
    case 'EADDRNOTAVAIL':
      return `cannot listen on ${host}: it is not an address of this host; use --host with one that is (default 127.0.0.1)`;
    default:
      return null;
  }
}
