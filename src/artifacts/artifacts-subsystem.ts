import type { Resources } from '../resources.js';
import type { Subsystem } from '../subsystem.js';
import { ArtifactsService } from './artifacts-service.js';
import { LinkSigner } from './link-signer.js';

/** Evidence files (screenshots, recordings, traces) and their signed links, signed with a key derived from the master key. */
export function artifactsSubsystem(deps: { resources: Resources; masterKey: Buffer; publicUrl: () => string }): Subsystem<{ artifacts: ArtifactsService; linkSigner: LinkSigner }> {
  const linkSigner = new LinkSigner(deps.masterKey);
  return { name: 'artifacts', services: { linkSigner, artifacts: new ArtifactsService(deps.resources, { signer: linkSigner, publicUrl: deps.publicUrl }) } };
}
