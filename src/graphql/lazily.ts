// The per-request objects of a GraphQL context (repositories, loaders) are made on first use: a
// v1 request resolves one field and needs one or two of them, so making all of them per request
// was garbage for nothing (GC was 5–9 % of a v1 profile).

/**
 * A maker of objects whose members are built from the object's `env` by their factories on first
 * use, then kept. The getters live on one prototype made here, once, so making an object per
 * request is one allocation (defining the getters on each fresh object, as the first version
 * did, turned it into a dictionary and cost ~16 µs a request).
 */
export const lazyRecord =
  <Env>() =>
  <T extends Record<string, (env: Env) => unknown>>(
    factories: T,
  ): ((env: Env) => { readonly [K in keyof T]: ReturnType<T[K]> }) => {
    class Lazy {
      readonly made = new Map<string, unknown>();
      constructor(readonly env: Env) {}
    }
    for (const [name, factory] of Object.entries(factories)) {
      Object.defineProperty(Lazy.prototype, name, {
        get(this: Lazy) {
          if (!this.made.has(name)) this.made.set(name, factory(this.env));
          return this.made.get(name);
        },
      });
    }
    return (env) => new Lazy(env) as never;
  };
