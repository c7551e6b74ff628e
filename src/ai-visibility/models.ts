export const AI_MODELS = ['chatgpt', 'gemini', 'perplexity', 'claude', 'copilot', 'google_ai_overviews', 'google_ai_mode', 'grok'] as const;
export type AiModel = (typeof AI_MODELS)[number];

/** BCP 47 language-region tags as the collectors send them, e.g. en-US, de-DE, pt-BR. */
export const isLocale = (value: string) => /^[a-z]{2,3}(-[A-Z][a-z]{3})?(-[A-Z]{2}|-\d{3})?$/.test(value);
