import type { Project } from '../../api.js';
import type { Column } from '../../output.js';
import type { CliContext } from '../../context.js';

export const projectColumns: Column<Project>[] = [
  { header: 'ID', value: (p) => p.id },
  { header: 'NAME', value: (p) => (p.is_default ? `${p.name} (default)` : p.name), max: 40 },
  { header: 'DESCRIPTION', value: (p) => p.description, max: 50 },
  { header: 'CREATED', value: (p) => p.created_at },
];

export function printProject(ctx: CliContext, project: Project): void {
  ctx.out.result(project, () =>
    ctx.out.fields([
      ['id', project.id],
      ['name', project.name],
      ['description', project.description],
      ['default', project.is_default],
      ['created', project.created_at],
      ['updated', project.updated_at],
    ]),
  );
}
