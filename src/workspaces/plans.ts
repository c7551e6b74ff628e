// The plans a workspace can be on, and how a sentence names them ("the Pro, Agency or Scale plan").
import type { Plan } from '../db/generated/prisma/enums.js';

export const PLANS: readonly Plan[] = ['free', 'starter', 'pro', 'agency', 'scale'];

/** A plan as people write it: "Pro". */
export const planName = (plan: Plan) => plan.charAt(0).toUpperCase() + plan.slice(1);

/** Plans in a sentence, in the order given: "Pro, Agency or Scale" (or "… and Scale"). */
export function planList(plans: readonly Plan[], conjunction: 'or' | 'and'): string {
  const names = plans.map(planName);
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} ${conjunction} ${names.at(-1)}`;
}
