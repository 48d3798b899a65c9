import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import formatsPlugin from 'ajv-formats';
import { parse } from 'yaml';

/** Reads `legacy-service.yaml` as the contract test needs it: operations, parameters and JSON Schemas. */

export const documentPath = fileURLToPath(new URL('./legacy-service.yaml', import.meta.url));

export type SchemaObject = { [keyword: string]: unknown };

interface Reference {
  $ref: string;
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: SchemaObject;
}

interface MediaType {
  schema?: SchemaObject;
}

interface Response {
  description: string;
  content?: Record<string, MediaType>;
}

interface RequestBody {
  required?: boolean;
  content: Record<string, MediaType>;
}

interface Operation {
  operationId?: string;
  /** `[]`: the operation needs no token. */
  security?: unknown[];
  parameters?: (Parameter | Reference)[];
  requestBody?: RequestBody | Reference;
  responses: Record<string, Response | Reference>;
}

const httpMethods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
type HttpMethod = (typeof httpMethods)[number];

type PathItem = { parameters?: (Parameter | Reference)[] } & Partial<Record<HttpMethod, Operation>>;

export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, PathItem>;
  components?: { schemas?: Record<string, SchemaObject> };
}

/** One documented operation with its references resolved. */
export interface DocumentedOperation {
  operationId: string;
  /** Upper case, as Hono lists routes. */
  method: string;
  path: string;
  parameters: Parameter[];
  /** The JSON request body schema, when the operation takes a body. */
  requestSchema: SchemaObject | undefined;
  /** Each documented status with its JSON body schema. */
  responses: Map<number, SchemaObject>;
  /** Needs no token (`security: []`): a call without one is answered, not refused with 401. */
  public: boolean;
}

const jsonMediaType = 'application/json';

export function loadDocument(): OpenApiDocument {
  return parse(readFileSync(documentPath, 'utf8')) as OpenApiDocument;
}

function isReference(value: unknown): value is Reference {
  return typeof value === 'object' && value !== null && typeof (value as Reference).$ref === 'string';
}

/** Follows local references (`#/components/...`); the document has no external ones. */
function resolve<T>(document: OpenApiDocument, value: T | Reference): T {
  if (!isReference(value)) return value;
  if (!value.$ref.startsWith('#/')) throw new Error(`Only local references are supported: ${value.$ref}`);
  let target: unknown = document;
  for (const segment of value.$ref.slice(2).split('/')) {
    const key = segment.replaceAll('~1', '/').replaceAll('~0', '~');
    target = (target as Record<string, unknown> | undefined)?.[key];
  }
  if (target === undefined) throw new Error(`Unresolved reference ${value.$ref}`);
  return resolve(document, target as T | Reference);
}

function jsonSchemaOf(content: Record<string, MediaType> | undefined, where: string): SchemaObject {
  const schema = content?.[jsonMediaType]?.schema;
  if (!schema) throw new Error(`${where} documents no ${jsonMediaType} body`);
  return schema;
}

const formMediaTypes = new Set(['application/x-www-form-urlencoded', 'multipart/form-data']);
function isFormOnly(content: Record<string, MediaType> | undefined): boolean {
  const types = Object.keys(content ?? {});
  return types.length > 0 && types.every((type) => formMediaTypes.has(type));
}

export function operationsOf(document: OpenApiDocument): DocumentedOperation[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    httpMethods.flatMap((method) => {
      const operation = item[method];
      if (!operation) return [];
      const where = `${method.toUpperCase()} ${path}`;
      if (!operation.operationId) throw new Error(`${where} has no operationId`);
      const responses = new Map<number, SchemaObject>();
      for (const [status, response] of Object.entries(operation.responses)) {
        // Every status is spelled out so each can be proved by a request; ranges and `default` cannot.
        if (!/^\d{3}$/.test(status)) throw new Error(`${where} documents status ${status}; name each one`);
        responses.set(
          Number(status),
          jsonSchemaOf(resolve(document, response).content, `${where} ${status}`),
        );
      }
      const body = operation.requestBody && resolve(document, operation.requestBody);
      return [
        {
          operationId: operation.operationId,
          method: method.toUpperCase(),
          path,
          parameters: [...(item.parameters ?? []), ...(operation.parameters ?? [])].map((parameter) =>
            resolve(document, parameter),
          ),
          // A form body (2.4.0's login) is forwarded as sent and has no JSON schema to check.
          requestSchema:
            body && !isFormOnly(body.content) ? jsonSchemaOf(body.content, `${where} request`) : undefined,
          responses,
          public: Array.isArray(operation.security) && operation.security.length === 0,
        },
      ];
    }),
  );
}

const schemasId = 'legacy-service.yaml';
const componentSchemaPrefix = '#/components/schemas/';
/** Keywords OpenAPI 3.0 adds to JSON Schema that only annotate; Ajv's strict mode rejects them. */
const annotationOnly = new Set(['example', 'discriminator', 'xml', 'externalDocs']);
const schemaListKeywords = new Set(['allOf', 'anyOf', 'oneOf']);
const subschemaKeywords = new Set(['items', 'not', 'additionalProperties']);

export interface SchemaOptions {
  /**
   * Validate answers to `only_primary_uuid=1`: OS2mo then cuts every object to `{uuid}`, so of each
   * object's required members only `uuid` stays required.
   */
  onlyPrimaryUuid?: boolean;
}

/**
 * Turns an OpenAPI 3.0 schema into the JSON Schema Ajv validates: `nullable: true` becomes "this schema or
 * null", annotation-only keywords go, and component references point into the schemas registered with Ajv.
 */
export function toJsonSchema(schema: SchemaObject, options: SchemaOptions = {}): SchemaObject {
  const recurse = (subschema: SchemaObject) => toJsonSchema(subschema, options);
  const converted: SchemaObject = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (keyword === 'nullable' || annotationOnly.has(keyword)) continue;
    if (keyword === '$ref' && typeof value === 'string') {
      if (!value.startsWith(componentSchemaPrefix)) throw new Error(`Unexpected schema reference ${value}`);
      converted.$ref = `${schemasId}#/definitions/${value.slice(componentSchemaPrefix.length)}`;
    } else if (schemaListKeywords.has(keyword)) {
      converted[keyword] = (value as SchemaObject[]).map(recurse);
    } else if (keyword === 'properties') {
      converted[keyword] = Object.fromEntries(
        Object.entries(value as Record<string, SchemaObject>).map(([name, property]) => [
          name,
          recurse(property),
        ]),
      );
    } else if (subschemaKeywords.has(keyword) && typeof value === 'object' && value !== null) {
      converted[keyword] = recurse(value as SchemaObject);
    } else if (
      keyword === 'required' &&
      options.onlyPrimaryUuid &&
      Array.isArray(value) &&
      value.includes('uuid')
    ) {
      converted[keyword] = ['uuid'];
    } else {
      converted[keyword] = value;
    }
  }
  return schema.nullable === true ? { anyOf: [converted, { type: 'null' }] } : converted;
}

export interface SchemaValidator {
  /** Ajv's messages for `value` against a schema taken from the document; empty when it conforms. */
  problems(schema: SchemaObject, value: unknown): string[];
}

export function createSchemaValidator(
  document: OpenApiDocument,
  options: SchemaOptions = {},
): SchemaValidator {
  const ajv = new Ajv({ allErrors: true, strict: true });
  formatsPlugin.default(ajv);
  const components = Object.entries(document.components?.schemas ?? {}).map(([name, schema]) => [
    name,
    toJsonSchema(schema, options),
  ]);
  ajv.addSchema({ $id: schemasId, definitions: Object.fromEntries(components) });
  const compiled = new WeakMap<SchemaObject, ValidateFunction>();
  return {
    problems(schema, value) {
      let validate = compiled.get(schema);
      if (!validate) {
        validate = ajv.compile(toJsonSchema(schema, options));
        compiled.set(schema, validate);
      }
      if (validate(value)) return [];
      return (validate.errors ?? []).map(
        (error) =>
          `${error.instancePath || '(body)'} ${error.message ?? error.keyword} ${JSON.stringify(error.params)}`,
      );
    },
  };
}
