// The front door of rest/ (v1): what the rest of the service uses: the prefix, the handler, and
// each path's route template for metrics and traces.
export { BASE_PATH, createRestHandler } from './handler.js';
export { v1RouteTemplate } from './routes.js';
export { queryBoolean } from './parameters.js';
