// The front door of workspaces/: what other features may use. Files elsewhere import from here,
// not from the files behind it (composition roots and lazy loads excepted; test/layers.test.ts).
export type { Actor } from './actor.js';
export { adminCommand, authorizeActor, sqlOf } from './admin-command.js';
export type { AdminCommandPolicy } from './admin-command.js';
export { generatePassword } from './members.js';
export { createWorkspace } from './service.js';
export { planList, planName } from './plans.js';
export type { Notify } from './service.js';
