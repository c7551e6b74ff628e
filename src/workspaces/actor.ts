// Who is changing a workspace's settings (admin-command.ts checks what they may do). The
// operator at the CLI (no --as) is trusted and recorded as "operator".

export interface Actor {
  /** An operator at the CLI without --as, or a member of the workspace by email. */
  email: string | null;
  /** A signed-in person acts in their active workspace only: other workspaces' things are not found. */
  workspaceId?: string;
  /** The app acting for the person (an MCP client's name), recorded in the audit log. */
  via?: string;
}

export const OPERATOR: Actor = { email: null };
