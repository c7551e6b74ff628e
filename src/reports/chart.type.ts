// A report's charts as GraphQL types: a series per metric, a point per bucket of the range with
// how much of the bucket the range holds and has data for, and the compared bucket beside it.
import type { ObjectFieldBuilder } from '@pothos/core';
import { builder } from '../graphql/builder.js';
import { GranularityEnum, MetricEnum, WidgetTypeEnum } from '../graphql/enums.js';
import { bounded } from '../graphql/cost.js';
import { DEFINITION_LIMITS } from './definition.js';
import { MAX_REPORT_DAYS } from './date-presets.js';
import type { BucketSpan, Chart, ChartPoint } from './engine.js';

type BucketFieldBuilder = ObjectFieldBuilder<typeof builder.$inferSchemaTypes, BucketSpan>;

/** A bucket's fields, alike on a chart point and on the compared bucket it is paired with. */
const bucketFields = (t: BucketFieldBuilder) => ({
  date: t.expose('date', { type: 'Date', description: 'First day of the bucket.' }),
  daysInRange: t.exposeInt('daysInRange', {
    description: 'Days of the bucket inside the range (a week has 7, a month its own).',
  }),
  partial: t.exposeBoolean('partial', {
    description:
      'True when the range cuts the bucket (a first or last week or month with fewer days): ' +
      'its sum covers daysInRange days only.',
  }),
  daysWithData: t.exposeInt('daysWithData', {
    description:
      "Days of daysInRange with facts of the widget's source. 0 is no data (a gap, not a bucket of " +
      'zeros, although value reads 0 for a count); fewer than daysInRange, the sum covers those days only.',
  }),
});

const ChartBucketType = builder.objectRef<BucketSpan>('ChartBucket').implement({
  description: "The compared range's bucket a chart point is compared with.",
  fields: bucketFields,
});

const ChartPointType = builder.objectRef<ChartPoint>('ChartPoint').implement({
  fields: (t) => ({
    // A chart point is a bucket (ChartPoint extends BucketSpan): the same fields read the same properties.
    ...bucketFields(t as unknown as BucketFieldBuilder),
    value: t.exposeFloat('value', { nullable: true }),
    previousValue: t.exposeFloat('previousValue', {
      nullable: true,
      description: 'Null when the compared period has no data for this metric (not 0).',
    }),
    compareBucket: t.expose('compareBucket', {
      type: ChartBucketType,
      nullable: true,
      description:
        "The compared range's bucket at the same position (first with first), with its own days: " +
        'a partial week may be compared with a whole one. Null without a comparison, or past the compared ' +
        "range's last bucket.",
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
