// The per-request objects of a GraphQL context (repositories, loaders) are made on first use: a
// v1 request resolves one field and needs one or two of them, so making all of them per request
// would be garbage for nothing (docs/decisions/request-path-allocations.md).

/**
 * A maker of objects whose members are built from the object's `env` by their factories on first
 * use, then kept. The getters live on one prototype made here, once, so making an object per
 * request is one allocation (getters defined on each fresh object turn it into a dictionary).
 */
export const lazyRecord =
  <Env>() =>
  <T extends Record<string, (env: Env) => unknown>>(
    factories: T,
  ): ((env: Env) => { readonly [K in keyof T]: ReturnType<T[K]> }) => {
    // What was made, by the factory's position: an array on first use, not a Map per object.
    class Lazy {
      made: unknown[] | undefined = undefined;
      constructor(readonly env: Env) {}
    }
    Object.entries(factories).forEach(([name, factory], index) => {
      Object.defineProperty(Lazy.prototype, name, {
        get(this: Lazy) {
          const made = (this.made ??= []);
          // Every factory makes an object (a repository, a loader), never null or undefined.
          return (made[index] ??= factory(this.env));
        },
      });
    });
    return (env) => new Lazy(env) as never;
  };
