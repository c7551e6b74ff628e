// The one table of paths to doors: app.ts asks it which door a request's path belongs to and
// hands the request over; each door routes within its prefix. A door also says how its failures
// answer (doors/boundary.ts): the web app's as pages for browsers, every other door's as the
// JSON envelope (MCP and /graphql answer their own protocol's errors inside).
import { GRAPHIQL_ASSETS_PATH } from '../graphql/graphiql.js';
import { MCP_PATH, PROTECTED_RESOURCE_PATHS } from '../mcp/index.js';
import { BASE_PATH } from '../rest/index.js';
import { ApiError } from '../errors/index.js';
import type { FailureShape } from './boundary.js';

export type DoorName =
  | 'web'
  | 'mcp'
  | 'mcpMetadata'
  | 'rest'
  | 'graphiqlAssets'
  | 'favicon'
  | 'graphql'
  | 'ingest'
  | 'home'
  | 'health'
  | 'readiness'
  | 'none';

/**
 * `exact`: the path itself; `segment`: the path or anything below it (`/app`, `/app/…`); `prefix`: any path starting
 * so.
 */
type Match = 'exact' | 'segment' | 'prefix';

interface DoorRow {
  paths: readonly string[];
  match: Match;
  door: DoorName;
  failures: FailureShape;
  /** The methods a door of one fixed answer takes (any other is 405 with Allow); absent: the door decides. */
  methods?: readonly string[];
}

const row = (
  door: DoorName,
  match: Match,
  paths: readonly string[],
  failures: FailureShape = 'json',
  methods?: readonly string[],
): DoorRow => ({ door, match, paths, failures, ...(methods ? { methods } : {}) });

/** Probes read: a load balancer's GET or HEAD. */
const PROBE_METHODS = ['GET', 'HEAD'];
/** A public document: read, and a browser's CORS preflight before reading it with the MCP SDK's headers. */
const DOCUMENT_METHODS = ['GET', 'HEAD', 'OPTIONS'];

/** First match wins; no two rows overlap today, so the order is only for reading. */
export const DOOR_TABLE: readonly DoorRow[] = [
  row('web', 'segment', ['/app'], 'page'),
  row('mcp', 'segment', [MCP_PATH]),
  row('mcpMetadata', 'exact', PROTECTED_RESOURCE_PATHS, 'json', DOCUMENT_METHODS),
  row('rest', 'segment', [BASE_PATH]),
  row('graphiqlAssets', 'prefix', [GRAPHIQL_ASSETS_PATH]),
  // Browsers ask every origin for /favicon.ico (the API reference and the web pages name none).
  row('favicon', 'exact', ['/favicon.ico']),
  row('graphql', 'exact', ['/graphql']),
  row('ingest', 'prefix', ['/internal/ingest/']),
  row('home', 'exact', ['/']),
  row('health', 'exact', ['/healthz'], 'json', PROBE_METHODS),
  row('readiness', 'exact', ['/readyz'], 'json', PROBE_METHODS),
];

const NO_DOOR = row('none', 'exact', []);

const matches = (match: Match, prefix: string, path: string) =>
  path === prefix ||
  (match === 'segment' && path.startsWith(`${prefix}/`)) ||
  (match === 'prefix' && path.startsWith(prefix));

/** The door a path belongs to (`none`: nothing answers there, a 404). */
export const doorOf = (path: string): DoorRow =>
  DOOR_TABLE.find((entry) => entry.paths.some((prefix) => matches(entry.match, prefix, path))) ?? NO_DOOR;

/** Refuses a method the door's row does not list (405 with Allow); a row without `methods` lets the door decide. */
export function checkMethod(door: DoorRow, method: string): void {
  if (door.methods && !door.methods.includes(method))
    throw new ApiError('method_not_allowed', `${method.slice(0, 16)} is not allowed here.`, {
      headers: { Allow: door.methods.join(', ') },
    });
}
