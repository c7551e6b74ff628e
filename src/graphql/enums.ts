// GraphQL enums built from the same constants the engines and validators use,
// so REST parameter checks, GraphQL coercion and OpenAPI enums cannot disagree.
import { builder } from './builder.js';
import { PROVIDERS, ALL_METRIC_NAMES } from '../reports/index.js';
import { COMPARE_PRESETS, DATE_PRESETS } from '../reports/index.js';
import { GRANULARITIES, WIDGET_TYPES } from '../reports/index.js';
import { AI_MODELS } from '../ai-visibility/index.js';

export const ProviderEnum = builder.enumType('Provider', { values: PROVIDERS });
export const MetricEnum = builder.enumType('Metric', { values: ALL_METRIC_NAMES });
export const DatePresetEnum = builder.enumType('DatePreset', { values: DATE_PRESETS });
export const ComparePresetEnum = builder.enumType('ComparePreset', { values: COMPARE_PRESETS });
export const WidgetTypeEnum = builder.enumType('WidgetType', { values: WIDGET_TYPES });
export const GranularityEnum = builder.enumType('Granularity', { values: GRANULARITIES });
export const AiModelEnum = builder.enumType('AiModel', { values: AI_MODELS });
