// The per-request objects of a GraphQL context (repositories, loaders) are made on first use: a
// v1 request resolves one field and needs one or two of them, so making all of them per request
// was garbage for nothing (GC was 5–9 % of a v1 profile).

/** An object whose members are made by their factories on first use, then kept. */
export function lazily<T extends Record<string, () => unknown>>(factories: T): { readonly [K in keyof T]: ReturnType<T[K]> } {
  const made: Partial<Record<keyof T, unknown>> = {};
  const object = {} as { [K in keyof T]: ReturnType<T[K]> };
  for (const name of Object.keys(factories) as (keyof T)[]) {
    Object.defineProperty(object, name, { enumerable: true, get: () => (made[name] ??= factories[name]!()) });
  }
  return object;
}

