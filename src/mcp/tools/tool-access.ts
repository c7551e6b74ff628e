// Whether a connection may call a tool, and when not, the one reason that is true, with what
// to do about it: the URL's selection, the person's consent, the workspace's write switch and
// the person's role are four different doors with four different keys. Pure.
import { isWorkspaceAdmin } from '../../auth/index.js';
import { ApiError } from '../../errors/index.js';
import type { Consent, Toolset, ToolSelection } from './toolsets.js';

export interface ToolAccess {
  /** What this request's URL (and X-MCP-* headers) selects. */
  selection: ToolSelection;
  /** What the person allowed this token. */
  consent: Consent;
  /** The workspace's MCP write switch. */
  writeActions: boolean;
  role: string;
}

export interface GatedTool {
  name: string;
  toolset: Toolset;
  /** Other toolsets whose data the tool shows and cannot be drawn without. */
  alsoNeeds?: readonly Toolset[];
  write?: true;
  adminOnly?: boolean;
}

/** Null when `tool` may be called; otherwise the refusal naming its real reason. */
export function toolRefusal(tool: GatedTool, access: ToolAccess): ApiError | null {
  const { toolset } = tool;
  const { selection, consent } = access;
  if (!selection.toolsets.has(toolset)) {
    return new ApiError(
      'not_found',
      `Tool ${tool.name} belongs to the toolset ${toolset}, which this connection's URL ` +
        `does not select: connect to /mcp/x/${toolset} (or list it in X-MCP-Toolsets).`,
    );
  }
  if (!consent.toolsets.has(toolset)) {
    return new ApiError(
      'forbidden',
      `Tool ${tool.name} belongs to the toolset ${toolset}, which this connection's consent ` +
        `does not include: reconnect the app and grant ${toolset}.`,
    );
  }
  const needed = tool.alsoNeeds?.find((other) => !consent.toolsets.has(other));
  if (needed) {
    const why =
      `Tool ${tool.name} also shows data of the toolset ${needed}, which this connection's ` +
      `consent does not include`;
    return new ApiError('forbidden', `${why}: reconnect the app and grant ${needed}.`);
  }
  if (tool.write) {
    if (selection.readonly)
      return new ApiError(
        'forbidden',
        `Tool ${tool.name} makes changes and this connection's URL is read-only (/readonly ` +
          `or X-MCP-Readonly): connect without it.`,
      );
    if (!consent.writes)
      return new ApiError(
        'forbidden',
        `Tool ${tool.name} makes changes, which this connection's consent does not allow: ` +
          `reconnect the app and allow changes.`,
      );
    if (!access.writeActions)
      return new ApiError(
        'forbidden',
        `Tool ${tool.name} makes changes, and write actions are switched off for this workspace: ` +
          `ask an admin to switch MCP write actions on in Settings.`,
      );
    return null;
  }
  // Not found, as the tool is not listed for members at all.
  if (tool.adminOnly && !isWorkspaceAdmin({ kind: 'oauth', role: access.role }))
    return new ApiError('not_found', `Tool ${tool.name} is for owners and admins of the workspace.`);
  return null;
}
