// Validates response bodies against the served OpenAPI 3.1 document (JSON Schema 2020-12).
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

type Doc = Record<string, any>;

export function createResponseValidator(document: Doc) {
  const ajv = new Ajv2020.default({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema({ ...document, $id: 'openapi.json' });
  const cache = new Map<string, ReturnType<typeof ajv.compile>>();

  return function validate(templatePath: string, status: number, body: unknown): string[] {
    const operation = document.paths[templatePath]?.get;
    if (!operation) return [`no operation for ${templatePath}`];
    let response = operation.responses[String(status)];
    if (!response) return [`status ${status} is not documented for ${templatePath}`];
    if (response.$ref) response = document.components.responses[response.$ref.split('/').pop()];
    const schema = response.content['application/json'].schema;
    const key = JSON.stringify(schema);
    let validator = cache.get(key);
    if (!validator) {
      const ref = schema.$ref ? { $ref: `openapi.json${schema.$ref}` } : schema;
      validator = ajv.compile(ref);
      cache.set(key, validator);
    }
    return validator(body) ? [] : (validator.errors ?? []).map((error) => `${error.instancePath} ${error.message}`);
  };
}
