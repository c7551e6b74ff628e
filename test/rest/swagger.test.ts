// The Swagger 2.0 document (Power Automate, Logic Apps, Power Apps, Copilot Studio) is our 3.1
// document converted in code: the same operations and parameters, 2.0's own way of saying a host,
// a key and a nullable value, nothing only 3.1 knows, under 1 MB.
import { describe, expect, it } from 'vitest';
import { schema } from '../../src/graphql/schema.js';
import { forOrigin } from '../../src/rest/openapi.js';
import { v1OpenApiDocument } from '../../src/rest/sofa.js';
import { parameterLabel, schemaTo2, toSwagger2 } from '../../src/rest/swagger.js';
import { v1Schema } from '../../src/rest/v1-schema.js';

const origin = 'https://api.example.test';
const openapi = forOrigin(v1OpenApiDocument(v1Schema(schema)), origin);
const swagger = toSwagger2(openapi, origin);

describe('the Swagger 2.0 document', () => {
  it(
    'names its host, base path and scheme, the key as the ' + 'first security definition, and JSON as what it produces',
    () => {
      expect(swagger).toMatchObject({
        swagger: '2.0',
        host: 'api.example.test',
        basePath: '/api/v1',
        schemes: ['https'],
        produces: ['application/json'],
        security: [{ apiKey: [] }],
      });
      const [first] = Object.entries<any>(swagger.securityDefinitions);
      expect(first).toEqual([
        'apiKey',
        {
          type: 'apiKey',
          in: 'header',
          name: 'Authorization',
          description: expect.stringMatching(/^Bearer sgb_live_…/),
        },
      ]);
      expect(swagger.info).not.toHaveProperty('summary');
      expect(swagger.info.license).toEqual({ name: 'Proprietary' });
    },
  );

  it('has the same operations and parameters as the 3.1 document', () => {
    const of = (paths: Record<string, any>, parameterOf: (parameter: any) => Record<string, unknown>) =>
      Object.entries(paths).map(([path, { get }]) => ({
        path,
        operationId: get.operationId,
        summary: get.summary,
        parameters: (get.parameters ?? []).map(parameterOf),
      }));
    const fromSchema = ({
      name,
      in: where,
      required,
      description,
      schema: { type, format, pattern, enum: values, minimum, maximum, default: fallback },
    }: any) => ({
      name,
      in: where,
      required,
      description,
      type,
      format,
      pattern,
      enum: values,
      minimum,
      maximum,
      default: fallback,
    });
    const flat = ({
      name,
      in: where,
      required,
      description,
      type,
      format,
      pattern,
      enum: values,
      minimum,
      maximum,
      default: fallback,
    }: any) => ({
      name,
      in: where,
      required,
      description,
      type,
      format,
      pattern,
      enum: values,
      minimum,
      maximum,
      default: fallback,
    });
    expect(of(swagger.paths, flat)).toEqual(of(openapi.paths, fromSchema));
    for (const [path, { get }] of Object.entries<any>(swagger.paths)) {
      for (const parameter of get.parameters ?? [])
        expect(parameter['x-example'], `${path} ${parameter.name}`).toEqual(
          openapi.paths[path].get.parameters.find((p: any) => p.name === parameter.name).schema.examples?.[0],
        );
    }
  });

  it('declares the one format each export produces (generators ask for JSON if listed), JSON for the rest', () => {
    expect(swagger.paths['/ai-visibility/projects/{id}/answers.csv'].get.produces).toEqual(['text/csv']);
    expect(swagger.paths['/ai-visibility/projects/{id}/sources.ndjson'].get.produces).toEqual(['application/x-ndjson']);
    expect(swagger.paths['/ai-visibility/projects/{id}/answers'].get).not.toHaveProperty('produces');
    expect(swagger.paths['/clients'].get.responses['200'].schema).toEqual({ $ref: '#/definitions/ClientList' });
    expect(swagger.paths['/clients'].get.responses['401']).toEqual({ $ref: '#/responses/Error401' });
  });

  it('uses no keyword only 3.1 knows: no type lists, no null, no anyOf/oneOf/const/examples', () => {
    const found: string[] = [];
    const visit = (value: unknown, at: string): void => {
      if (Array.isArray(value)) return value.forEach((item, index) => visit(item, `${at}/${index}`));
      if (!value || typeof value !== 'object') return;
      for (const [key, child] of Object.entries(value)) {
        if (['anyOf', 'oneOf', 'const', 'examples', 'nullable', '$schema'].includes(key)) found.push(`${at}/${key}`);
        if (key === 'type' && typeof child !== 'string' && !at.endsWith('/properties')) found.push(`${at}/type`);
        if (key === 'enum' && (child as unknown[]).includes(null)) found.push(`${at}/enum`);
        if (key === '$ref' && typeof child === 'string' && child.includes('components')) found.push(`${at}/$ref`);
        visit(child, `${at}/${key}`);
      }
    };
    visit(swagger, '#');
    expect(found).toEqual([]);
    expect(JSON.stringify(swagger)).not.toContain('"content"');
  });

  it('says nullable the 2.0 way, and a nullable object keeps its shape (ReportData.compareRange)', () => {
    const reportData = swagger.definitions.ReportData.properties;
    expect(reportData.compareRange).toMatchObject({
      type: 'object',
      allOf: [{ $ref: '#/definitions/ReportRange' }],
      'x-nullable': true,
    });
    expect(reportData.range).toEqual({ $ref: '#/definitions/ReportRange' });
    expect(swagger.definitions.Widget.properties.granularity).toEqual({
      type: 'string',
      enum: ['day', 'month', 'week'],
      'x-nullable': true,
    });
    expect(swagger.definitions.AiVisibilityAnswer.properties.sentiment).toMatchObject({
      type: 'string',
      'x-nullable': true,
    });
    expect(swagger.definitions.AiVisibilityAnswer.properties.sentiment.enum).not.toContain(null);
  });

  it("labels every parameter for a connector's forms (x-ms-summary), written as words", () => {
    expect(['dateFrom', 'promptId', 'includeArchived', 'bom', 'id', 'groupBy'].map(parameterLabel)).toEqual([
      'Date from',
      'Prompt ID',
      'Include archived',
      'BOM',
      'ID',
      'Group by',
    ]);
    const parameters = Object.values<any>(swagger.paths).flatMap((item) => item.get.parameters ?? []);
    expect(parameters.length).toBeGreaterThan(50);
    for (const parameter of parameters)
      expect(parameter['x-ms-summary'], parameter.name).toBe(parameterLabel(parameter.name));
  });

  it('is under 1 MB', () => {
    expect(Buffer.byteLength(JSON.stringify(swagger))).toBeLessThan(1_000_000);
  });
});

describe('schemaTo2', () => {
  it('refuses what 2.0 cannot say rather than writing something else', () => {
    expect(() => schemaTo2({ type: ['string', 'integer'] })).toThrow(/type list/);
    expect(() => schemaTo2({ oneOf: [{ type: 'string' }, { type: 'integer' }] })).toThrow(/oneOf/);
    expect(schemaTo2({ type: ['integer', 'null'], examples: [3], const: 3 })).toEqual({
      type: 'integer',
      example: 3,
      enum: [3],
      'x-nullable': true,
    });
  });
});
