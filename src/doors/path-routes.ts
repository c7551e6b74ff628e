// How a door with fixed paths routes (the sign-in and single sign-on doors): a table of path →
// method → answer. A path not in the table is not this door's (null: the next door is asked); a
// method the path does not take is 405 with Allow.
import { ApiError } from '../errors/index.js';

export type PathRoutes<Extra> = Record<
  string,
  Partial<Record<string, (request: Request, extra: Extra) => Promise<Response>>>
>;

export function routeByPath<Extra>(routes: PathRoutes<Extra>) {
  return async (request: Request, path: string, extra: Extra): Promise<Response | null> => {
    const methods = routes[path];
    if (!methods) return null;
    const run = methods[request.method];
    if (!run)
      throw new ApiError('method_not_allowed', `${request.method} is not allowed here.`, {
        headers: { Allow: Object.keys(methods).join(', ') },
      });
    return run(request, extra);
  };
}
