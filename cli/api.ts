/**
 * The CLI's one way to the API: the project's TypeScript SDK, `@errand/sdk` (sdk/typescript/), as gh goes through its
 * one `api` package. It is imported from its sources, so that `npm run build` compiles it with the CLI (into
 * dist/sdk/typescript/) and the CLI always runs the SDK of its own commit; commands take the client and the types
 * from here.
 */
export * from '../sdk/typescript/src/index.js';
import type { ListEnvelope, Status } from '../sdk/typescript/src/index.js';

/** One Docker engine of `sandbox.hosts` as GET /v1/status reports it. */
export type SandboxHostStatus = Status['sandbox']['hosts'][number];

/** A page of a list as the API answers it (what `--json` prints). */
export type ListPage<T> = ListEnvelope<T>;
