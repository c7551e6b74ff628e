// How often a rule, at a threshold, would have fired over a project's past scans: the same
// pairs and the same pure rule as ingestion, nothing stored.
import type { WorkspaceScope } from '../db/workspace-scope.js';
import type { FiredSignal, SignalKind } from './rules.js';
import { evaluateRules } from './evaluate-rules.js';
import { scanPairOf, SCAN_PAIRS_IN_RANGE } from './scan-pairs.js';

export interface RulePreview {
  kind: SignalKind;
  threshold: number;
  /** Scans in the range that had a previous scan to compare with. */
  scansCompared: number;
  fired: number;
  /** The most recent firings first, at most MAX_PREVIEW_FIRINGS. */
  firings: (FiredSignal['details'] & { date: string; model: string; locale: string })[];
}

export const MAX_PREVIEW_FIRINGS = 50;

export async function previewRule(
  scope: WorkspaceScope,
  projectId: string,
  rule: { kind: SignalKind; threshold: number },
  range: { from: string; to: string },
): Promise<RulePreview> {
  const pairs = await scope.rows(SCAN_PAIRS_IN_RANGE, { projectId, from: range.from, to: range.to });
  const firings: RulePreview['firings'] = [];
  let fired = 0;
  for (const row of pairs) {
    const { previous, current } = scanPairOf(row);
    const signals = evaluateRules(previous, current, [{ ...rule, enabled: true }]);
    fired += signals.length;
    for (const signal of signals)
      if (firings.length < MAX_PREVIEW_FIRINGS)
        firings.push({
          date: row.date as string,
          model: row.model as string,
          locale: row.locale as string,
          ...signal.details,
        });
  }
  return { ...rule, scansCompared: pairs.length, fired, firings };
}
