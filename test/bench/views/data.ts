// The bench's data: 365 days × 4 models × (brand + 3 competitors), visibility 0..1, seeded.
export interface BenchData {
  days: string[];
  models: { name: string; series: { name: string; values: number[] }[] }[];
}

export function benchData(): BenchData {
  let seed = 42;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const start = Date.UTC(2025, 10, 26);
  const days = Array.from({ length: 365 }, (_, index) =>
    new Date(start + index * 86_400_000).toISOString().slice(0, 10),
  );
  const models = ['gpt-5', 'claude-sonnet-4', 'gemini-2.5-pro', 'perplexity-sonar'].map((name) => ({
    name,
    series: ['Brand', 'Competitor A', 'Competitor B', 'Competitor C'].map((series) => ({
      name: series,
      values: days.map(() => Math.round(random() * 1000) / 1000),
    })),
  }));
  return { days, models };
}
