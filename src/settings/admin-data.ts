// Who may see the workspace's admin data in settings (API keys, webhooks, single sign-on, MCP
// grants, the audit log): the page and its JSON twins ask this, as /graphql and MCP ask
// `isWorkspaceAdmin` — owners and admins, never members.
import { isWorkspaceAdmin } from '../auth/index.js';
import type { SessionView } from '../sessions/index.js';

export const readsAdminData = (session: SessionView) => isWorkspaceAdmin({ kind: 'session', role: session.role });
