// Every type module registers itself on the builder when imported.
import { lexicographicSortSchema, printSchema } from 'graphql';
import { builder } from './builder.js';
import './scalars.js';
import './node.js';
import '../clients/client.type.js';
import '../reports/report.type.js';
import '../reports/report-data.type.js';
import '../ai-visibility/projects/project.type.js';
import '../ai-visibility/metrics/metrics.type.js';
import '../ai-visibility/metrics/period-comparison.type.js';
import '../ai-visibility/metrics/trend.type.js';
import '../ai-visibility/scans/scan.type.js';
import '../ai-visibility/prompts/prompt.type.js';
import '../ai-visibility/answers/answer.type.js';
import '../ai-visibility/sources/sources.type.js';
import '../ai-visibility/opportunities/citation-gaps.type.js';
import '../ai-visibility/search-queries/search-queries.type.js';
import '../ai-visibility/opportunities/opportunities.type.js';
import '../signals/signal.type.js';
import '../workspaces/viewer.type.js';
import '../workspaces/members.type.js';
import '../reports/catalog.type.js';
import '../reports/metrics-query.type.js';
import '../webhooks/webhook.type.js';
import '../audit/audit-log.type.js';

export const schema = builder.toSchema();
export const printedSchema = () => printSchema(lexicographicSortSchema(schema));
