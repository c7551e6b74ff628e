import { describe, expect, it } from 'vitest';
import { effectiveRules, RULE_SPECS, thresholdProblem, type ScanForRules } from '../../src/signals/rules.js';
import { evaluateRules } from '../../src/signals/evaluate-rules.js';
import { SCAN_COUNTERS } from '../support/scan-lines.js';

const scan = (id: string, overrides: Partial<ScanForRules> = {}): ScanForRules => ({
  id,
  ...SCAN_COUNTERS,
  competitors: [],
  citationCount: 40,
  ownedCitationCount: 10,
  prompts: [],
  ...overrides,
});

const defaults = effectiveRules([]);
const kinds = (previous: ScanForRules, current: ScanForRules, rules = defaults) =>
  evaluateRules(previous, current, rules).map((signal) => signal.kind);

describe('signal rules', () => {
  it('fill in the defaults of the contract', () => {
    expect(defaults).toEqual([
      { kind: 'visibility_drop', threshold: 10, enabled: true },
      { kind: 'share_of_voice_overtaken', threshold: 0, enabled: true },
      { kind: 'average_position_worse', threshold: 1, enabled: true },
      { kind: 'sentiment_negative', threshold: 0, enabled: true },
      { kind: 'owned_citation_share_drop', threshold: 10, enabled: true },
      { kind: 'competitor_only_prompt', threshold: 1, enabled: true },
    ]);
    expect(effectiveRules([{ kind: 'visibility_drop', threshold: 5, enabled: false }])[0]).toEqual({
      kind: 'visibility_drop',
      threshold: 5,
      enabled: false,
    });
  });

  it('fire nothing for an unchanged scan', () => {
    expect(kinds(scan('a'), scan('b'))).toEqual([]);
  });

  it('visibility_drop fires at the threshold in points, exactly (no float noise), not below it', () => {
    const fired = evaluateRules(scan('a'), scan('b', { visibilityCount: 40 }), defaults);
    expect(fired).toEqual([
      {
        kind: 'visibility_drop',
        details: { metric: 'visibility', before: 0.5, after: 0.4, threshold: 10, previousScanId: 'a' },
      },
    ]);
    expect(kinds(scan('a'), scan('b', { visibilityCount: 41 }))).toEqual([]);
    expect(
      kinds(
        scan('a'),
        scan('b', { visibilityCount: 45 }),
        effectiveRules([{ kind: 'visibility_drop', threshold: 5, enabled: true }]),
      ),
    ).toEqual(['visibility_drop']);
    expect(
      kinds(
        scan('a'),
        scan('b', { visibilityCount: 10 }),
        effectiveRules([{ kind: 'visibility_drop', threshold: 5, enabled: false }]),
      ),
    ).toEqual([]);
  });

  it('average_position_worse compares pooled positions (sum / positioned)', () => {
    // 2.0 → 3.0
    const fired = evaluateRules(scan('a'), scan('b', { positionSum: 120 }), defaults);
    expect(fired.map((signal) => [signal.kind, signal.details.before, signal.details.after])).toEqual([
      ['average_position_worse', 2, 3],
    ]);
    expect(kinds(scan('a'), scan('b', { positionSum: 119 }))).toEqual([]);
    // A better position is not news.
    expect(kinds(scan('a'), scan('b', { positionSum: 40 }))).toEqual([]);
  });

  it('sentiment_negative fires when net sentiment crosses below the threshold, not while it stays below', () => {
    expect(kinds(scan('a'), scan('b', { positiveCount: 5, negativeCount: 25 }))).toEqual(['sentiment_negative']);
    expect(
      kinds(scan('a', { positiveCount: 5, negativeCount: 25 }), scan('b', { positiveCount: 4, negativeCount: 26 })),
    ).toEqual([]);
  });

  it('share_of_voice_overtaken fires per competitor that rose above the brand', () => {
    const before = scan('a', {
      competitors: [
        { name: 'Acme', visibilityCount: 30, mentionCount: 30, positionedCount: 0, positionSum: 0 },
        { name: 'Globex', visibilityCount: 0, mentionCount: 10, positionedCount: 0, positionSum: 0 },
      ],
    });
    const after = scan('b', {
      mentionCount: 30,
      competitors: [
        { name: 'Acme', visibilityCount: 45, mentionCount: 45, positionedCount: 0, positionSum: 0 },
        { name: 'Globex', visibilityCount: 0, mentionCount: 12, positionedCount: 0, positionSum: 0 },
      ],
    });
    const fired = evaluateRules(before, after, defaults);
    expect(fired).toEqual([
      {
        kind: 'share_of_voice_overtaken',
        details: {
          metric: 'shareOfVoice',
          competitor: 'Acme',
          before: 0.3,
          after: 0.45,
          brandBefore: 0.4,
          brandAfter: 0.3,
          threshold: 0,
          previousScanId: 'a',
        },
      },
    ]);
    // Already ahead before: no news. Absent before: nothing to compare with.
    expect(kinds(after, scan('c', { mentionCount: 30, competitors: after.competitors }))).toEqual([]);
    expect(kinds(scan('a'), after)).toEqual([]);
  });

  it('owned_citation_share_drop fires when the owned share of citations falls by the threshold in points', () => {
    // 10/40 = 25 % → 6/40 = 15 %: exactly 10 points.
    expect(kinds(scan('a'), scan('b', { ownedCitationCount: 6 }))).toEqual(['owned_citation_share_drop']);
    expect(evaluateRules(scan('a'), scan('b', { ownedCitationCount: 6 }), defaults)[0]!.details).toMatchObject({
      metric: 'ownedCitationShare',
      before: 0.25,
      after: 0.15,
      previousScanId: 'a',
    });
    expect(kinds(scan('a'), scan('b', { ownedCitationCount: 7 }))).toEqual([]);
    // Fewer citations, the same share: nothing.
    expect(kinds(scan('a'), scan('b', { citationCount: 4, ownedCitationCount: 1 }))).toEqual([]);
    // No citations on either side: no share, nothing fires.
    expect(kinds(scan('a', { citationCount: 0, ownedCitationCount: 0 }), scan('b', { ownedCitationCount: 0 }))).toEqual(
      [],
    );
  });

  it('ignore rates with a zero denominator on either side', () => {
    expect(kinds(scan('a', { totalRuns: 0, visibilityCount: 0 }), scan('b', { visibilityCount: 0 }))).toEqual([]);
    expect(kinds(scan('a'), scan('b', { positiveCount: 0, neutralCount: 0, negativeCount: 0 }))).toEqual([]);
  });

  it('bound thresholds per kind', () => {
    expect(thresholdProblem('visibility_drop', 0)).toMatch(/from 0.01 to 100/);
    expect(thresholdProblem('visibility_drop', Number.NaN)).not.toBeNull();
    expect(thresholdProblem('sentiment_negative', -0.5)).toBeNull();
    expect(thresholdProblem('sentiment_negative', 2)).not.toBeNull();
    // A count of competitors is whole.
    expect(thresholdProblem('competitor_only_prompt', 2)).toBeNull();
    expect(thresholdProblem('competitor_only_prompt', 1.5)).toMatch(/whole number from 1 to 50/);
    expect(Object.keys(RULE_SPECS)).toHaveLength(6);
  });

  it(
    'competitor_only_prompt fires per prompt whose answer names competitors it did not name before ' +
      'while the brand goes unnamed, in prompt order',
    () => {
      const run = (promptId: string, brandVisible: boolean, ...competitorsVisible: string[]) => ({
        promptId,
        prompt: `about ${promptId}`,
        brandVisible,
        competitorsVisible,
      });
      const before = scan('a', {
        prompts: [run('p1', true, 'Globex'), run('p2', false), run('p3', false, 'Globex'), run('p4', true)],
      });
      const after = scan('b', {
        prompts: [
          run('p1', false, 'Globex', 'Initech'),
          run('p2', false, 'Initech', 'Globex'),
          run('p3', false, 'Globex'),
          run('p4', true, 'Globex'),
          run('p5', false, 'Globex'),
        ],
      });
      const rule = [{ kind: 'competitor_only_prompt' as const, threshold: 1, enabled: true }];
      expect(evaluateRules(before, after, rule)).toEqual([
        {
          kind: 'competitor_only_prompt',
          details: {
            metric: 'competitorsNamed',
            promptId: 'p1',
            prompt: 'about p1',
            competitors: ['Initech'],
            before: 1,
            after: 2,
            brandBefore: 1,
            brandAfter: 0,
            threshold: 1,
            previousScanId: 'a',
          },
        },
        {
          kind: 'competitor_only_prompt',
          details: {
            metric: 'competitorsNamed',
            promptId: 'p2',
            prompt: 'about p2',
            competitors: ['Globex', 'Initech'],
            before: 0,
            after: 2,
            brandBefore: 0,
            brandAfter: 0,
            threshold: 1,
            previousScanId: 'a',
          },
        },
      ]);
      // p3: no competitor is new; p4: the brand is named; p5: nothing to compare with. At 2, only p2.
      expect(
        evaluateRules(before, after, [{ ...rule[0]!, threshold: 2 }]).map((signal) => signal.details.promptId),
      ).toEqual(['p2']);
    },
  );

  it('competitor_only_prompt lists the new competitors in code-point order, past U+FFFF too', () => {
    const run = (brandVisible: boolean, ...competitorsVisible: string[]) => ({
      promptId: 'p',
      prompt: 'about p',
      brandVisible,
      competitorsVisible,
    });
    const fired = evaluateRules(
      scan('a', { prompts: [run(false)] }),
      scan('b', { prompts: [run(false, '\u{1F600} emoji', '\uFF21 wide', 'Globex')] }),
      [{ kind: 'competitor_only_prompt', threshold: 1, enabled: true }],
    );
    expect(fired[0]!.details.competitors).toEqual(['Globex', '\uFF21 wide', '\u{1F600} emoji']);
  });
});
