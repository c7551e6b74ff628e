// The front door of signals/: what other features may use. Files elsewhere import from here,
// not from the files behind it (composition roots and lazy loads excepted; test/layers.test.ts).
export { recordSignals } from './record.js';
export { signalRepository } from './repository.js';
export type { SignalFilter, SignalRow } from './repository.js';
export { setRule } from './rule-management.js';
export { SET_RULE_INPUT } from './rule-input.js';
export { SIGNAL_KINDS } from './rules.js';
export type { SignalRule } from './rules.js';
export { previewRule } from './rule-preview.js';
export type { RulePreview } from './rule-preview.js';
export { isSignalKind, RULE_SPECS, thresholdProblem } from './rules.js';
export { acknowledgeSignal } from './acknowledgement.js';
