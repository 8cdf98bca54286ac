import { runFileRouteSchemas as s } from '../../src/run-files/run-file-schemas.js';
import type { RunFilesService } from '../../src/run-files/run-files-service.js';
import { principalOf } from '../plugins/auth.js';
import { downloadHeaders } from '../content-disposition.js';
import type { RoutePlugin } from './route-plugin.js';

export const runFileRoutes: RoutePlugin<{ runFiles: RunFilesService }> = async (app, { runFiles }) => {
  app.get(
    '/runs/:id/files',
    { schema: { ...s.list, tags: ['Runs'], summary: "A run's files: what its browser downloaded and its code wrote under /workspace/out/, with signed links" } },
    (req) => runFiles.list(principalOf(req).orgId, req.params.id),
  );

  app.get(
    '/runs/:id/files/:file',
    {
      // The signature is the authority: the link works without an API key (it goes into webhooks and MCP answers).
      config: { public: true },
      schema: { ...s.download, tags: ['Runs'], summary: "Download one of a run's files by its signed link", security: [] },
    },
    async (req, reply) => {
      const { file, stream } = await runFiles.open(req.params.id, req.params.file, req.query);
      // Streamed from disk, never read whole.
      return reply.headers(downloadHeaders({ name: file.name, contentType: file.content_type, bytes: file.bytes, cacheControl: 'private, max-age=3600' })).send(stream);
    },
  );
};
