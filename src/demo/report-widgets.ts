// The demo reports' widgets per connected provider: every widget type, varied a little by the
// client's place in the list.
import type { ProviderId, ReportDefinition } from '../reports/index.js';

export const WIDGETS_BY_PROVIDER: Record<ProviderId, (clientIndex: number) => ReportDefinition['widgets']> = {
  google_analytics: () => [
    {
      id: 'ga-kpis',
      type: 'kpi',
      title: 'Traffic',
      provider: 'google_analytics',
      metrics: ['sessions', 'engagement_rate', 'conversions', 'conversion_rate'],
    },
    {
      id: 'ga-sessions',
      type: 'line_chart',
      title: 'Sessions over time',
      provider: 'google_analytics',
      metrics: ['sessions', 'engaged_sessions'],
      granularity: 'day',
    },
    {
      id: 'ga-channels',
      type: 'table',
      title: 'Channels',
      provider: 'google_analytics',
      metrics: ['sessions', 'engagement_rate', 'conversions'],
      dimension: 'channel',
      limit: 10,
    },
  ],
  google_ads: () => [
    {
      id: 'ads-kpis',
      type: 'kpi',
      title: 'Google Ads',
      provider: 'google_ads',
      metrics: ['cost', 'clicks', 'ctr', 'cpc', 'roas'],
    },
    {
      id: 'ads-cost',
      type: 'bar_chart',
      title: 'Spend by week',
      provider: 'google_ads',
      metrics: ['cost', 'conversions'],
      granularity: 'week',
    },
    {
      id: 'ads-campaigns',
      type: 'table',
      title: 'Campaigns',
      provider: 'google_ads',
      metrics: ['cost', 'clicks', 'ctr', 'roas'],
      dimension: 'campaign',
      limit: 5,
    },
  ],
  meta_ads: () => [
    { id: 'meta-kpis', type: 'kpi', title: 'Meta Ads', provider: 'meta_ads', metrics: ['cost', 'reach', 'cpm', 'ctr'] },
    {
      id: 'meta-monthly',
      type: 'line_chart',
      title: 'Meta by month',
      provider: 'meta_ads',
      metrics: ['cost', 'roas'],
      granularity: 'month',
    },
    {
      id: 'meta-devices',
      type: 'table',
      title: 'Devices',
      provider: 'meta_ads',
      metrics: ['clicks', 'cpc'],
      dimension: 'device',
    },
  ],
  google_search_console: () => [
    {
      id: 'gsc-kpis',
      type: 'kpi',
      title: 'Search',
      provider: 'google_search_console',
      metrics: ['clicks', 'impressions', 'ctr', 'average_position'],
    },
    {
      id: 'gsc-clicks',
      type: 'line_chart',
      title: 'Search clicks',
      provider: 'google_search_console',
      metrics: ['clicks', 'average_position'],
      granularity: 'week',
    },
    {
      id: 'gsc-countries',
      type: 'table',
      title: 'Countries',
      provider: 'google_search_console',
      metrics: ['clicks', 'impressions', 'ctr'],
      dimension: 'country',
    },
  ],
};
