// An OpenAPI document as this code handles it: JSON walked and rewritten by key (SOFA's output,
// the 3.1 document, its 2.0 conversion), whose shape the OpenAPI tests hold, not the type checker.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON read and written by key, checked by the tests
export type OpenApiDocument = Record<string, any>;
