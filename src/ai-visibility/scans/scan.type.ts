import { builder } from '../../graphql/builder.js';
import { AiModelEnum } from '../../graphql/enums.js';
import { NodeInterface, registerNodeKind } from '../../graphql/node.js';
import { connectionType, pageArgFields, pageCost } from '../../graphql/connection.js';
import { GRAPH_ONLY } from '../../graphql/graph-only.js';
import { isCivilDate } from '../../dates/civil-date.js';
import { countersAndRates, type CountersFieldBuilder } from '../metrics/metrics.type.js';
import { ProjectType } from '../projects/project.type.js';
import type { ScanRow } from './scans-repository.js';
import { localeFilterOf } from '../common/read-filters.js';

export const ScanType = builder.objectRef<ScanRow>('AiVisibilityScan').implement({
  description: 'One scan: a project × model × locale × date with its counters.',
  interfaces: [NodeInterface],
  fields: (t) => ({
    id: t.exposeID('id'),
    projectId: t.exposeString('projectId'),
    date: t.expose('date', { type: 'Date' }),
    model: t.expose('model', { type: AiModelEnum }),
    locale: t.exposeString('locale'),
    completedAt: t.expose('completedAt', { type: 'DateTime' }),
    ...countersAndRates(t as unknown as CountersFieldBuilder),
  }),
});

registerNodeKind('scan', {
  typeName: 'AiVisibilityScan',
  load: (ctx, id) => ctx.loaders.scan.load(id),
});

const ScanConnection = connectionType(
  'AiVisibilityScan',
  ScanType,
  (scan) => ({ sortValue: scan.date, id: scan.id }),
  isCivilDate,
);

builder.objectField(ProjectType, 'scans', (t) =>
  t.field({
    type: ScanConnection.type,
    description: "This project's scans, newest first (by date).",
    authScopes: { scope: 'ai_visibility:read' },
    extensions: GRAPH_ONLY,
    args: {
      ...pageArgFields(t.arg),
      dateFrom: t.arg({ type: 'Date', required: false }),
      dateTo: t.arg({ type: 'Date', required: false }),
      model: t.arg({ type: AiModelEnum, required: false }),
      locale: t.arg.string({
        required: false,
        description: 'Only this locale (a BCP 47 tag, any case); leave it out for every locale.',
      }),
    },
    complexity: pageCost,
    resolve: (project, args, ctx) =>
      ScanConnection.read(ctx, project.id, args, (page) =>
        ctx.loaders.scansOfProject.load({
          parentId: project.id,
          args: {
            ...page,
            dateFrom: args.dateFrom ?? null,
            dateTo: args.dateTo ?? null,
            model: args.model ?? null,
            locale: localeFilterOf(args.locale),
          },
        }),
      ),
  }),
);
