// What importers need of the v1 document (GPT Actions, Postman, n8n, generators): one media type
// per operation, exports as operations of their own, no header parameters, no operation for the
// document itself, texts within GPT Actions' limits, every rule of a parameter in its schema, and
// examples that match it. Built as the server builds it, without a server.
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import {
  GraphQLBoolean,
  GraphQLEnumType,
  GraphQLInt,
  GraphQLObjectType,
  GraphQLString,
  type GraphQLField,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { ROW_EXPORTS } from '../../src/ai-visibility/index.js';
import { schema } from '../../src/graphql/schema.js';
import { forOrigin } from '../../src/rest/openapi.js';
import {
  LISTING_OPERATIONS,
  OPERATION_TEXT_MAX,
  PARAMETER_TEXT_MAX,
  routeParameters,
} from '../../src/rest/openapi-parameters.js';
import { EXPORT_ROUTES, REST_ROUTES } from '../../src/rest/routes.js';
import { v1OpenApiDocument } from '../../src/rest/sofa.js';
import { v1Schema } from '../../src/rest/v1-schema.js';

const v1 = v1Schema(schema);
const document = forOrigin(v1OpenApiDocument(v1), 'https://api.example.test');
const operations = Object.entries<any>(document.paths).map(([path, item]) => ({ path, ...item.get }));
const parameters = operations.flatMap((operation) =>
  (operation.parameters ?? []).map((parameter: any) => ({ operation: operation.operationId, ...parameter })),
);

describe('operations', () => {
  it('are the JSON routes and one export per format of each route with an export, and nothing else', () => {
    const exporting = REST_ROUTES.filter((route) => ROW_EXPORTS[route.field]);
    expect(exporting.map((route) => route.field).sort()).toEqual(Object.keys(ROW_EXPORTS).sort());
    expect(operations.map((operation) => operation.operationId).sort()).toEqual(
      [...REST_ROUTES, ...EXPORT_ROUTES].map((route) => route.operationId).sort(),
    );
    expect(EXPORT_ROUTES.map((route) => route.operationId)).toContain('exportAiVisibilityAnswersCsv');
    expect(document.paths['/ai-visibility/projects/{id}/answers.ndjson'].get.operationId).toBe(
      'exportAiVisibilityAnswersNdjson',
    );
    expect(Object.keys(document.paths)).not.toContain('/openapi.json');
  });

  it('answer one media type each: JSON for data, the one format of an export', () => {
    for (const operation of operations) {
      const types = Object.keys(operation.responses['200'].content);
      expect(types, operation.operationId).toEqual([
        operation.path.endsWith('.csv')
          ? 'text/csv'
          : operation.path.endsWith('.ndjson')
            ? 'application/x-ndjson'
            : 'application/json',
      ]);
    }
  });

  it('exports take the filters of their JSON twin, without limit or cursor, and a CSV export bom', () => {
    for (const route of EXPORT_ROUTES) {
      const twin = REST_ROUTES.find((candidate) => candidate.field === route.field)!;
      const names = (path: string) =>
        document.paths[path.replace(/:(\w+)/g, '{$1}')].get.parameters.map((parameter: any) => parameter.name);
      const filters = names(twin.path).filter((name: string) => name !== 'limit' && name !== 'cursor');
      expect(names(route.path), route.path).toEqual(route.format === 'csv' ? [...filters, 'bom'] : filters);
    }
  });

  it('keep summaries and descriptions within 300 characters, parameters within 700 (GPT Actions)', () => {
    for (const operation of operations) {
      expect(operation.summary.length, operation.operationId).toBeLessThanOrEqual(OPERATION_TEXT_MAX);
      expect(operation.description.length, operation.operationId).toBeLessThanOrEqual(OPERATION_TEXT_MAX);
    }
    for (const parameter of parameters)
      expect(parameter.description.length, `${parameter.operation} ${parameter.name}`).toBeLessThanOrEqual(
        PARAMETER_TEXT_MAX,
      );
  });
});

describe('errors', () => {
  it("type what every error carries as required (a generated client's requestId is not optional)", () => {
    expect(document.components.schemas.Error.properties.error.required).toEqual(['code', 'message', 'requestId']);
  });

  it('list 406 for the JSON operations only: an export answers its format whatever the Accept header says', () => {
    for (const operation of operations) {
      const exported = /\.(csv|ndjson)$/.test(operation.path);
      expect([operation.operationId, '406' in operation.responses]).toEqual([operation.operationId, !exported]);
    }
  });
});

describe('parameters', () => {
  it('are query or path parameters only, no header (conditional requests are described in prose)', () => {
    expect(new Set(parameters.map((parameter) => parameter.in))).toEqual(new Set(['path', 'query']));
    expect(document.components.parameters).toBeUndefined();
    expect(document.info.description).toContain('If-None-Match');
  });

  it('describe each id with the operation that lists it', () => {
    const ids = parameters.filter((parameter) => parameter.schema.pattern?.includes('{20}'));
    expect(ids.map((parameter) => parameter.name)).toEqual(
      expect.arrayContaining(['id', 'answerId', 'promptId', 'clientId']),
    );
    const operationIds = operations.map((operation) => operation.operationId);
    for (const parameter of ids) {
      const named = LISTING_OPERATIONS.find((listing) => parameter.description.includes(`from ${listing}.`));
      expect(named, `${parameter.operation} ${parameter.name}`).toBeDefined();
      expect(operationIds).toContain(named);
    }
  });

  it('state dateFrom ≤ dateTo beside both', () => {
    for (const parameter of parameters.filter((candidate) => candidate.name === 'dateFrom'))
      expect(parameter.description).toMatch(/not be after dateTo/);
    for (const parameter of parameters.filter((candidate) => candidate.name === 'dateTo'))
      expect(parameter.description).toMatch(/not be before dateFrom/);
  });

  it('carry examples that match their own schema, and defaults too', () => {
    const ajv = new Ajv2020.default({ strict: false });
    addFormats.default(ajv);
    for (const parameter of parameters) {
      const where = `${parameter.operation} ${parameter.name}`;
      // An integer's example is its default or minimum (the arguments gain bounds with v1's integer rules).
      const derivable = parameter.schema.type !== 'integer' || parameter.schema.minimum !== undefined;
      if (derivable) expect(parameter.schema.examples, where).toHaveLength(1);
      expect(parameter, where).not.toHaveProperty('example');
      for (const value of [parameter.schema.examples?.[0], parameter.schema.default].filter(
        (value) => value !== undefined,
      ))
        expect(ajv.validate(parameter.schema, value), `${where}: ${value}`).toBe(true);
    }
  });

  it('give every integer the bounds and default its GraphQL argument declares', () => {
    const fields = v1.getQueryType()!.getFields();
    for (const parameter of parameters.filter((candidate) => candidate.schema.type === 'integer')) {
      const route = [...REST_ROUTES, ...EXPORT_ROUTES].find(
        (candidate) => candidate.operationId === parameter.operation,
      )!;
      const arg = fields[route.field]!.args.find((candidate) => candidate.name === parameter.name)!;
      const bounds = (arg.extensions as { bounds?: Record<string, number> }).bounds ?? {};
      expect(parameter.schema, `${parameter.operation} ${parameter.name}`).toEqual({
        type: 'integer',
        ...bounds,
        ...(arg.defaultValue != null ? { default: arg.defaultValue, examples: [arg.defaultValue] } : {}),
      });
    }
  });

  it('declare minimum, maximum and default on every integer', () => {
    for (const parameter of parameters.filter((candidate) => candidate.schema.type === 'integer')) {
      expect(parameter.schema, `${parameter.operation} ${parameter.name}`).toEqual({
        type: 'integer',
        minimum: expect.any(Number),
        maximum: expect.any(Number),
        default: expect.any(Number),
        examples: [parameter.schema.default],
      });
    }
  });

  it('give locale the form the server checks (a BCP 47 pattern, matched in any case)', () => {
    const locales = parameters.filter((parameter) => parameter.name === 'locale');
    expect(locales.length).toBeGreaterThan(5);
    for (const parameter of locales) {
      const pattern = new RegExp(parameter.schema.pattern as string);
      expect(
        ['en-US', 'en-us', 'de', 'zh-Hant-TW'].every((tag) => pattern.test(tag)),
        parameter.operation,
      ).toBe(true);
      expect(
        ['english', 'en_US', 'xx-'].some((tag) => pattern.test(tag)),
        parameter.operation,
      ).toBe(false);
    }
  });
});

describe('a parameter written from its GraphQL argument', () => {
  const Kind = new GraphQLEnumType({
    name: 'Kind',
    values: { first: { value: 'FIRST' }, second: { value: 'SECOND' } },
  });
  const field = new GraphQLObjectType({
    name: 'Query',
    fields: {
      things: {
        type: GraphQLString,
        args: {
          limit: {
            type: GraphQLInt,
            description: 'Things per page.',
            extensions: { bounds: { minimum: 1, maximum: 50, default: 20 } },
          },
          size: { type: GraphQLInt, defaultValue: 5, extensions: { bounds: { minimum: 1, maximum: 9 } } },
          kind: { type: Kind, defaultValue: 'SECOND' },
          archived: { type: GraphQLBoolean, defaultValue: false },
          cursor: { type: GraphQLString },
          other: { type: GraphQLString },
        },
      },
    },
  }).getFields().things as GraphQLField<unknown, unknown>;
  const route = { path: '/things', field: 'things', operationId: 'listThings', tag: 'Things', summary: 'List things' };

  it(
    'carries bounds, the default (GraphQL defaultValue first, ' + 'an enum by name) and an example the schema allows',
    () => {
      const byName = Object.fromEntries(routeParameters(route, field).map((parameter) => [parameter.name, parameter]));
      expect(byName.limit).toEqual({
        name: 'limit',
        in: 'query',
        required: false,
        description: 'Things per page.',
        schema: { type: 'integer', minimum: 1, maximum: 50, default: 20, examples: [20] },
      });
      expect(byName.size!.schema).toEqual({ type: 'integer', minimum: 1, maximum: 9, default: 5, examples: [5] });
      expect(byName.kind).toMatchObject({
        schema: { type: 'string', enum: ['first', 'second'], default: 'second', examples: ['second'] },
      });
      expect(byName.archived).toMatchObject({ schema: { type: 'boolean', default: false, examples: [false] } });
      expect(byName.cursor).toMatchObject({ schema: { type: 'string', examples: [''] } });
      expect(byName.other!.schema).not.toHaveProperty('examples');
    },
  );

  it('leaves paging out of an export, and gives a CSV export bom', () => {
    expect(
      routeParameters({ ...route, path: '/things.ndjson', format: 'ndjson' }, field).map((parameter) => parameter.name),
    ).toEqual(['size', 'kind', 'archived', 'other']);
    expect(
      routeParameters({ ...route, path: '/things.csv', format: 'csv' }, field).map((parameter) => parameter.name),
    ).toEqual(['size', 'kind', 'archived', 'other', 'bom']);
  });
});
