import { artifactRouteSchemas as s } from '../../src/artifacts/artifact-schemas.js';
import type { ArtifactsService } from '../../src/artifacts/artifacts-service.js';
import type { RoutePlugin } from './route-plugin.js';

export const artifactRoutes: RoutePlugin<{ artifacts: ArtifactsService }> = async (app, { artifacts }) => {
  app.get(
    '/artifacts/:id',
    {
      // The signature is the authority: the link works without an API key (it goes into webhooks and emails).
      config: { public: true },
      schema: { ...s.get, tags: ['Artifacts'], summary: 'Fetch an artifact (a screenshot, recording or trace) by its signed link', security: [] },
    },
    async (req, reply) => {
      const { artifact, body } = await artifacts.open(req.params.id, req.query);
      // A trace is for the trace viewer, not the browser: saved under a name that says whose it is.
      if (artifact.kind === 'trace') reply.header('content-disposition', `attachment; filename="${artifact.run_id}-trace.zip"`);
      return reply
        .type(artifact.content_type)
        .header('cache-control', 'private, max-age=3600')
        .header('x-content-type-options', 'nosniff')
        .send(body);
    },
  );
};
