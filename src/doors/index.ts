// The front door of doors/: what the doors in their own folders (rest/, mcp/, settings/) use —
// the one boundary that turns any error into their answer's envelope, and the one path matcher.
export {
  apiErrorOf,
  errorBody,
  errorResponse,
  failureResponse,
  graphqlFailure,
  jsonFailure,
  nodeFailure,
  oauthFailure,
  pageFailure,
  toolErrorResult,
  toolFailure,
  type FailureShape,
  type FailureSite,
  type NodeAnswer,
  type ToolFailure,
} from './boundary.js';
export { pathMatcher, routeByPath, type ParamChecks, type PathParams, type PathRoutes } from './path-routes.js';
