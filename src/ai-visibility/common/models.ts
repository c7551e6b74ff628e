export const AI_MODELS = [
  'chatgpt',
  'gemini',
  'perplexity',
  'claude',
  'copilot',
  'google_ai_overviews',
  'google_ai_mode',
  'grok',
] as const;
export type AiModel = (typeof AI_MODELS)[number];
