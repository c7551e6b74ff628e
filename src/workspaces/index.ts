// The front door of workspaces/: what other features may use. Files elsewhere import from here,
// not from the files behind it (composition roots and lazy loads excepted; test/layers.test.ts).
export type { Actor } from './actor.js';
export { adminCommand, authorizeActor, inActorsWorkspace, sqlOf } from './admin-command.js';
export type { AdminCommandPolicy } from './admin-command.js';
export { generatePassword } from './members.js';
export { createWorkspace } from './service.js';
export { FEATURES, PLAN_FEATURES, PLANS, planHas, planList, planName, planRefusal, plansWith } from './plans.js';
export type { Feature } from './plans.js';
export type { Notify } from './service.js';
