import { profileRouteSchemas as s } from '../../src/profiles/profile-schemas.js';
import type { ProfilesService } from '../../src/profiles/profiles-service.js';
import { principalOf } from '../plugins/auth.js';
import type { RoutePlugin } from './route-plugin.js';

const tags = ['Profiles'];

/** Saved logins (docs/api.md, Profiles): their states go in (an import) and never come out. */
export const profileRoutes: RoutePlugin<{ profiles: ProfilesService }> = async (app, { profiles }) => {
  app.get('/profiles', { schema: { ...s.list, tags, summary: "List profiles (saved logins): the sites each holds and its health, never its state" } }, (req) =>
    profiles.list(principalOf(req).orgId, req.query),
  );
  app.post(
    '/profiles',
    { schema: { ...s.create, tags, summary: 'Create a profile: empty (a run or a person fills it), or imported from a Playwright storage state' } },
    (req, reply) => reply.status(201).send(profiles.create(principalOf(req).orgId, req.body)),
  );
  app.get('/profiles/:id', { schema: { ...s.get, tags, summary: 'Get a profile' } }, (req) => profiles.get(principalOf(req).orgId, req.params.id));
  app.patch(
    '/profiles/:id',
    { schema: { ...s.update, tags, summary: 'Rename a profile, change its check or expiry, or replace its state' } },
    (req) => profiles.update(principalOf(req).orgId, req.params.id, req.body),
  );
  app.delete('/profiles/:id', { schema: { ...s.delete, tags, summary: 'Delete a profile and every sealed copy of its state' } }, (req) =>
    profiles.delete(principalOf(req).orgId, req.params.id),
  );
  app.post(
    '/profiles/:id/check',
    { schema: { ...s.check, tags, summary: "Check now whether a profile is signed in (its state in a sandbox of its own, its check's page looked at)" } },
    (req) => profiles.check(principalOf(req).orgId, req.params.id),
  );
  app.get('/profiles/:id/runs', { schema: { ...s.uses, tags, summary: 'The runs that used a profile, newest first, and whether each saved it' } }, (req) =>
    profiles.uses(principalOf(req).orgId, req.params.id, req.query),
  );
};
