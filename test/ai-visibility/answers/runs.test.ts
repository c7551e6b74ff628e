// The pure derivation and pooling of runs, property-tested: counters derived per scan pool to
// the counters of all runs, shares over any split of a range pool to the whole, and a scan
// re-sent with its runs shuffled is the same scan.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  competitorCountersFromRuns,
  counterDifferences,
  countersFromRuns,
  runProblems,
  runsDigest,
  type Run,
} from '../../../src/ai-visibility/answers/runs.js';
import { pooledRates, ratesOf, sumCounters } from '../../../src/ai-visibility/metrics/pooled-rates.js';
import { registrableDomain, normaliseDomain } from '../../../src/ai-visibility/sources/domains.js';
import { sourceRow, sourceTotalsOf } from '../../../src/ai-visibility/sources/source-shares.js';

const COMPETITORS = ['Globex', 'Initech', 'Hooli'];
const DOMAINS = [
  'acme.com',
  'reddit.com',
  'en.wikipedia.org',
  'blog.example.co.uk',
  'www.example.co.uk',
  'globex.com',
  'foo.github.io',
];

const runArbitrary: fc.Arbitrary<Run> = fc
  .record({
    prompt: fc.string({ minLength: 1, maxLength: 12 }),
    answer: fc.string({ maxLength: 30 }),
    brandMentions: fc.nat(4),
    extra: fc.nat(3),
    ranked: fc.boolean(),
    position: fc.integer({ min: 1, max: 6 }),
    sentiment: fc.constantFrom('positive' as const, 'neutral' as const, 'negative' as const, null),
    competitors: fc.uniqueArray(
      fc.record({
        name: fc.constantFrom(...COMPETITORS),
        mentions: fc.nat(3),
        position: fc.option(fc.integer({ min: 1, max: 6 }), { nil: null }),
      }),
      { selector: (entry) => entry.name, maxLength: 3 },
    ),
    citations: fc.array(fc.record({ host: fc.constantFrom(...DOMAINS), path: fc.nat(50) }), { maxLength: 6 }),
  })
  .map((raw) => {
    const competitors = raw.competitors.map((entry) => ({
      ...entry,
      position: entry.mentions ? entry.position : null,
    }));
    const brandMentions = raw.brandMentions;
    return {
      prompt: raw.prompt,
      answer: raw.answer,
      brandMentions,
      totalMentions: brandMentions + competitors.reduce((sum, entry) => sum + entry.mentions, 0) + raw.extra,
      position: brandMentions && raw.ranked ? raw.position : null,
      sentiment: brandMentions ? raw.sentiment : null,
      competitors,
      citations: raw.citations.map((citation) => ({ url: `https://${citation.host}/${citation.path}` })),
    };
  });

/** Runs with distinct prompts, as one scan holds them. */
const scanRuns = fc.uniqueArray(runArbitrary, { selector: (run) => run.prompt, maxLength: 25 });

describe('counters from runs', () => {
  it(
    'derived per scan and pooled equal the counters of all the runs at once (what metrics pools ' +
      'equals what the runs say)',
    () => {
      fc.assert(
        fc.property(fc.array(scanRuns, { minLength: 1, maxLength: 8 }), (scans) => {
          const perScan = scans.map(countersFromRuns);
          const all = countersFromRuns(scans.flat());
          expect(sumCounters(perScan)).toEqual(all);
          expect(pooledRates(perScan)).toEqual(ratesOf(all));
        }),
      );
    },
  );

  it("satisfy the contract's bounds for valid runs", () => {
    fc.assert(
      fc.property(scanRuns, (runs) => {
        expect(runs.flatMap((run, index) => runProblems(run, index))).toEqual([]);
        const counters = countersFromRuns(runs);
        expect(counters.visibilityCount).toBeLessThanOrEqual(counters.totalRuns);
        expect(counters.mentionCount).toBeLessThanOrEqual(counters.totalMentionCount);
        expect(counters.positionedCount).toBeLessThanOrEqual(counters.visibilityCount);
        expect(counters.positiveCount + counters.neutralCount + counters.negativeCount).toBeLessThanOrEqual(
          counters.visibilityCount,
        );
        for (const competitor of competitorCountersFromRuns(runs))
          expect(competitor.visibilityCount).toBeLessThanOrEqual(counters.totalRuns);
      }),
    );
  });

  it('do not depend on the order of the runs: a shuffled re-send has the same counters and digest', () => {
    fc.assert(
      fc.property(
        scanRuns.chain((runs) =>
          fc.tuple(fc.constant(runs), fc.shuffledSubarray(runs, { minLength: runs.length, maxLength: runs.length })),
        ),
        ([runs, shuffled]) => {
          expect(countersFromRuns(shuffled)).toEqual(countersFromRuns(runs));
          expect(competitorCountersFromRuns(shuffled)).toEqual(competitorCountersFromRuns(runs));
          expect(runsDigest(shuffled)).toBe(runsDigest(runs));
        },
      ),
    );
  });

  it('any change to a run changes the digest', () => {
    fc.assert(
      fc.property(
        scanRuns.filter((runs) => runs.length > 0),
        fc.nat(),
        (runs, pick) => {
          const index = pick % runs.length;
          const changed = runs.map((run, i) => (i === index ? { ...run, answer: `${run.answer}!` } : run));
          expect(runsDigest(changed)).not.toBe(runsDigest(runs));
        },
      ),
    );
  });

  it('name every counter sent beside runs that disagrees', () => {
    const runs: Run[] = [
      { prompt: 'a', answer: '', brandMentions: 1, totalMentions: 2, position: 1, sentiment: 'positive' },
    ];
    expect(counterDifferences({ totalRuns: 1, mentionCount: 3 }, countersFromRuns(runs))).toEqual([
      'mentionCount: sent 3, the runs give 1',
    ]);
  });
});

describe('source shares', () => {
  it('per-scan domain totals summed over any split of a range give the shares of the whole range', () => {
    // Scans of one locale on days 0..n; split at `cut`: the parts' sums, divided once, equal the whole.
    fc.assert(
      fc.property(fc.array(scanRuns, { minLength: 1, maxLength: 6 }), fc.nat(), (scans, cutAt) => {
        const cut = cutAt % (scans.length + 1);
        const sums = (part: Run[][]) => {
          const byDomain = new Map<string, { citations: number; answersCiting: number }>();
          for (const runs of part) {
            for (const [domain, totals] of sourceTotalsOf(runs)) {
              const current = byDomain.get(domain) ?? { citations: 0, answersCiting: 0 };
              byDomain.set(domain, {
                citations: current.citations + totals.citations,
                answersCiting: current.answersCiting + totals.answersCiting,
              });
            }
          }
          return byDomain;
        };
        const whole = sums(scans);
        const [first, second] = [sums(scans.slice(0, cut)), sums(scans.slice(cut))];
        const allRuns = scans.flat();
        const localeCitations = allRuns.reduce((sum, run) => sum + (run.citations?.length ?? 0), 0);
        const ownership = { owned: new Set(['acme.com']), competitorOf: new Map([['globex.com', 'Globex']]) };
        for (const [domain, totals] of whole) {
          const added = {
            citations: (first.get(domain)?.citations ?? 0) + (second.get(domain)?.citations ?? 0),
            answersCiting: (first.get(domain)?.answersCiting ?? 0) + (second.get(domain)?.answersCiting ?? 0),
          };
          expect(added).toEqual({ citations: totals.citations, answersCiting: totals.answersCiting });
          // The definition, straight from the runs: distinct answers citing the domain.
          const citing = allRuns.filter((run) =>
            run.citations?.some((citation) => registrableDomain(citation.url) === domain),
          ).length;
          expect(totals.answersCiting).toBe(citing);
          const row = sourceRow(
            {
              locale: 'en-US',
              domain,
              ...added,
              retrievals: 0,
              retrievedNotCited: 0,
              localeCitations,
              localeRuns: allRuns.length,
            },
            ownership,
          );
          expect(row.citationShare).toBeCloseTo(totals.citations / localeCitations, 12);
          expect(row.answerShare).toBeCloseTo(citing / allRuns.length, 12);
          expect(row.owned).toBe(domain === 'acme.com');
          expect(row.competitor).toBe(domain === 'globex.com' ? 'Globex' : null);
        }
      }),
    );
  });

  it('a zero denominator is null, never NaN', () => {
    expect(
      sourceRow(
        {
          locale: 'en-US',
          domain: 'x.com',
          citations: 0,
          answersCiting: 0,
          retrievals: 0,
          retrievedNotCited: 0,
          localeCitations: 0,
          localeRuns: 0,
        },
        { owned: new Set(), competitorOf: new Map() },
      ),
    ).toMatchObject({ citationShare: null, answerShare: null });
  });
});

describe('registrable domains', () => {
  it('come from the public suffix list, private suffixes included', () => {
    expect(registrableDomain('https://blog.example.co.uk/post')).toBe('example.co.uk');
    expect(registrableDomain('https://WWW.Reddit.com/r/x')).toBe('reddit.com');
    expect(registrableDomain('https://foo.github.io/x')).toBe('foo.github.io');
    expect(registrableDomain('https://a.b.c.example.com.au/')).toBe('example.com.au');
    expect(registrableDomain('http://127.0.0.1:8080/x')).toBe('127.0.0.1');
    expect(normaliseDomain('https://www.Example.co.uk/')).toBe('example.co.uk');
    expect(normaliseDomain('not a domain')).toBeNull();
    expect(normaliseDomain('co.uk')).toBeNull();
  });
});
