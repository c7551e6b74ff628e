import { describe, expect, it } from 'vitest';
import { planList, planName } from '../../src/workspaces/plans.js';

describe('plan names in sentences', () => {
  it('capitalise a plan and join several with commas and one conjunction', () => {
    expect(planName('agency')).toBe('Agency');
    expect(planList(['pro', 'agency', 'scale'], 'or')).toBe('Pro, Agency or Scale');
    expect(planList(['agency', 'scale'], 'and')).toBe('Agency and Scale');
    expect(planList(['scale'], 'or')).toBe('Scale');
  });
});
