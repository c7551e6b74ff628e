// A report's charts as GraphQL types: a series per metric, a point per bucket of the range with
// how much of the bucket the range holds and has data for, and the compared bucket beside it.
import type { ObjectFieldBuilder } from '@pothos/core';
import { builder } from '../graphql/builder.js';
import { GranularityEnum, MetricEnum, WidgetTypeEnum } from '../graphql/enums.js';
import { bounded } from '../graphql/cost.js';
import { DEFINITION_LIMITS } from './definition.js';
import { MAX_REPORT_DAYS } from './date-presets.js';
import type { BucketSpan, Chart, ChartPoint } from './engine.js';

/** A bucket's fields, alike on a chart point and on the compared bucket it is paired with. */
const bucketFields = <Shape extends BucketSpan>(t: ObjectFieldBuilder<typeof builder.$inferSchemaTypes, Shape>) => ({
  date: t.field({ type: 'Date', description: 'First day of the bucket.', resolve: (bucket) => bucket.date }),
  daysInRange: t.int({
    description: 'Days of the bucket inside the range (a week has 7, a month its own).',
    resolve: (bucket) => bucket.daysInRange,
  }),
  partial: t.boolean({
    description: 'True when the range cuts the bucket (a first or last week or month with fewer days): '
      + 'its sum covers daysInRange days only.',
    resolve: (bucket) => bucket.partial,
  }),
  daysWithData: t.int({
    description: 'Days of daysInRange with facts of the widget\'s source. 0 is no data (a gap, not a bucket of '
      + 'zeros, although value reads 0 for a count); fewer than daysInRange, the sum covers those days only.',
    resolve: (bucket) => bucket.daysWithData,
  }),
});

const ChartBucketType = builder.objectRef<BucketSpan>('ChartBucket').implement({
  description: 'The compared range\'s bucket a chart point is compared with.',
  fields: bucketFields,
});

const ChartPointType = builder.objectRef<ChartPoint>('ChartPoint').implement({
  fields: (t) => ({
    ...bucketFields(t),
    value: t.exposeFloat('value', { nullable: true }),
    previousValue: t.exposeFloat('previousValue', {
      nullable: true,
      description: 'Null when the compared period has no data for this metric (not 0).',
    }),
    compareBucket: t.expose('compareBucket', {
      type: ChartBucketType,
      nullable: true,
      description: 'The compared range\'s bucket at the same position (first with first), with its own days: '
        + 'a partial week may be compared with a whole one. Null without a comparison, or past the compared '
        + 'range\'s last bucket.',
    }),
  }),
});

const ChartSeriesType = builder.objectRef<Chart['series'][number]>('ChartSeries').implement({
  fields: (t) => ({
    metric: t.expose('metric', { type: MetricEnum }),
    points: t.expose('points', {
      type: [ChartPointType],
      description: 'One per day, week or month of the range.',
      complexity: bounded(MAX_REPORT_DAYS),
    }),
  }),
});

export const ChartType = builder.objectRef<Chart>('Chart').implement({
  fields: (t) => ({
    widgetId: t.exposeString('widgetId'),
    type: t.expose('type', { type: WidgetTypeEnum }),
    granularity: t.expose('granularity', { type: GranularityEnum }),
    series: t.expose('series', {
      type: [ChartSeriesType],
      complexity: bounded(DEFINITION_LIMITS.metricsPerWidget),
    }),
  }),
});
