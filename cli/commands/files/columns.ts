import type { FileObject } from '../../api.js';
import type { CliContext } from '../../context.js';
import type { Column } from '../../output.js';

export const fileColumns: Column<FileObject>[] = [
  { header: 'ID', value: (f) => f.id },
  { header: 'NAME', value: (f) => f.name, max: 40 },
  { header: 'SIZE', value: (f) => f.size },
  { header: 'TYPE', value: (f) => f.content_type, max: 30 },
  { header: 'CREATED', value: (f) => f.created_at },
];

export function printFile(ctx: CliContext, file: FileObject): void {
  ctx.out.result(file, () =>
    ctx.out.fields([
      ['id', file.id],
      ['name', file.name],
      ['size', file.size],
      ['sha256', file.sha256],
      ['content type', file.content_type],
      ['created', file.created_at],
    ]),
  );
}
