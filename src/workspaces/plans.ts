// The plans a workspace can be on, which plan has which feature, and how a sentence names them
// ("the Pro, Agency or Scale plan"). PLAN_FEATURES is the one table every door asks: admission
// (the API), admin commands (webhooks, single sign-on), the MCP connector and the webhook worker.
import type { Plan } from '../db/generated/prisma/enums.js';

export const PLANS: readonly Plan[] = ['free', 'starter', 'pro', 'agency', 'scale'];

/** What a plan may include. The web app itself is the product on every plan and is no feature here. */
export const FEATURES = ['api', 'mcp', 'webhooks', 'sso'] as const;
export type Feature = (typeof FEATURES)[number];

const PAID: readonly Feature[] = ['api', 'mcp', 'webhooks', 'sso'];

/** Which plan has which feature. */
export const PLAN_FEATURES: Readonly<Record<Plan, readonly Feature[]>> = {
  free: [],
  starter: ['mcp'],
  pro: PAID,
  agency: PAID,
  scale: PAID,
};

/** A refusal's subject, with its verb: "The API needs the Pro, Agency or Scale plan". */
const NEEDS: Record<Feature, string> = {
  api: 'The API needs',
  mcp: 'The MCP connector needs',
  webhooks: 'webhooks need',
  sso: 'single sign-on needs',
};

export const planHas = (plan: Plan, feature: Feature) => PLAN_FEATURES[plan].includes(feature);

/** The plans that include `feature`, cheapest first. */
export const plansWith = (feature: Feature): readonly Plan[] => PLANS.filter((plan) => planHas(plan, feature));

/** A plan as people write it: "Pro". */
export const planName = (plan: Plan) => plan.charAt(0).toUpperCase() + plan.slice(1);

/** Plans in a sentence, in the order given: "Pro, Agency or Scale" (or "… and Scale"). */
export function planList(plans: readonly Plan[], conjunction: 'or' | 'and'): string {
  const names = plans.map(planName);
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} ${conjunction} ${names.at(-1)}`;
}

/** Why `plan` is refused `feature`: "The API needs the Pro, Agency or Scale plan; this workspace is on Free". */
export const planRefusal = (feature: Feature, plan: Plan, holder = 'this workspace') =>
  `${NEEDS[feature]} the ${planList(plansWith(feature), 'or')} plan; ${holder} is on ${planName(plan)}`;
