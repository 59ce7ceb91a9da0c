// Loads openapi.yaml and compiles its schemas with ajv: request validators for the app, response validators for tests.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { PROJECT_ROOT } from '../project-root.js';
import { ROLES } from '../domain/roles.js';
import type { MemberRole } from '../domain/types.js';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';
const METHODS: HttpMethod[] = ['get', 'post', 'put', 'patch', 'delete'];

type JsonObject = Record<string, unknown>;

export interface ParameterSpec {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema: JsonObject;
}

export interface OperationSpec {
  operationId: string;
  method: HttpMethod;
  /** The OpenAPI path template, e.g. /v1/inboxes/{id}. */
  path: string;
  parameters: ParameterSpec[];
  requestBodySchema: JsonObject | null;
  requestBodyRequired: boolean;
  /** True when the operation declares `security: []`: no credentials (sign-in, one-time links, signed file links). */
  public: boolean;
  /** True when its security lists only `sessionCookie`: dashboard-only, an API key gets 403 session_required. */
  sessionOnly: boolean;
  /** True when its security lists only `bearerKey`: a session cookie is not looked at, only an API key answers. */
  keyOnly: boolean;
  /**
   * `x-exchange: true`: the handler writes the response itself on Node's request and response (the MCP endpoint, whose
   * SDK transport speaks its own protocol), once the router has authenticated, rate-limited and read the body.
   */
  exchange: boolean;
  /** `x-min-role`: the least role a session needs (member when absent); keys are held to their access instead. */
  minRole: MemberRole;
  /**
   * `x-body-limit: message`: the body may be as large as a message (send), not just the 1 MiB default; it is a
   * capture in transfer, composed into its message on a content worker.
   */
  messageSizedBody: boolean;
  /** `x-read-only: true`: changes nothing whatever its method (a dry run), so a `read` key may call it. */
  readOnly: boolean;
  responses: Record<string, { content?: Record<string, { schema?: JsonObject }> }>;
}

export interface OpenApiDocument {
  raw: JsonObject;
  operations: OperationSpec[];
  errorCodes: string[];
}

const COMPONENTS_ID = 'components';

/** Points document-local refs at the shared components schema so every compiled validator can resolve them. */
function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (value && typeof value === 'object') {
    const out: JsonObject = {};
    for (const [key, inner] of Object.entries(value)) {
      out[key] = key === '$ref' && typeof inner === 'string' && inner.startsWith('#/components/schemas/')
        ? `${COMPONENTS_ID}#/$defs/${inner.slice('#/components/schemas/'.length)}`
        : rewriteRefs(inner);
    }
    return out;
  }
  return value;
}

function resolveLocal<T>(doc: JsonObject, value: T): T {
  const ref = (value as { $ref?: string } | undefined)?.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return value;
  let target: unknown = doc;
  for (const part of ref.slice(2).split('/')) target = (target as JsonObject)[part];
  if (target === undefined) throw new Error(`openapi.yaml: unresolved reference ${ref}`);
  return resolveLocal(doc, target as T);
}

function readMinRole(operation: JsonObject): MemberRole {
  const value = operation['x-min-role'] ?? 'member';
  if (!(ROLES as readonly unknown[]).includes(value)) throw new Error(`openapi.yaml: ${String(operation.operationId)} has x-min-role '${String(value)}' (expected ${ROLES.join(', ')})`);
  return value as MemberRole;
}

/** The Mailpit-compatible API's own contract (src/http/mailpit/). */
export const MAILPIT_API_FILE = path.join(PROJECT_ROOT, 'mailpit-api.yaml');

/**
 * The contract's document: the build's JSON copy (scripts/contracts-json.mjs) when it was made from this very YAML,
 * else the YAML parsed, which costs a start several times more CPU.
 */
function readContract(file: string): JsonObject {
  const text = fs.readFileSync(file, 'utf8');
  const copy = path.join(PROJECT_ROOT, 'dist', 'contracts', `${path.basename(file, '.yaml')}.json`);
  if (fs.existsSync(copy)) {
    const built = JSON.parse(fs.readFileSync(copy, 'utf8')) as { sha256?: string; document?: JsonObject };
    if (built.sha256 === createHash('sha256').update(text).digest('hex') && built.document) return built.document;
  }
  return parseYaml(text) as JsonObject;
}

export function loadOpenApi(file: string = path.join(PROJECT_ROOT, 'openapi.yaml')): OpenApiDocument {
  const raw = readContract(file);
  const operations: OperationSpec[] = [];
  for (const [pathTemplate, pathItemRaw] of Object.entries(raw.paths as JsonObject)) {
    const pathItem = pathItemRaw as JsonObject;
    const shared = ((pathItem.parameters as unknown[]) ?? []).map((p) => resolveLocal(raw, p) as ParameterSpec);
    for (const method of METHODS) {
      const operation = pathItem[method] as JsonObject | undefined;
      if (!operation) continue;
      const own = ((operation.parameters as unknown[]) ?? []).map((p) => resolveLocal(raw, p) as ParameterSpec);
      const body = resolveLocal(raw, operation.requestBody as JsonObject | undefined);
      const bodyContent = (body?.content as Record<string, { schema?: JsonObject }> | undefined)?.['application/json'];
      const responses: OperationSpec['responses'] = {};
      for (const [status, response] of Object.entries(operation.responses as JsonObject)) {
        responses[status] = resolveLocal(raw, response) as OperationSpec['responses'][string];
      }
      operations.push({
        operationId: operation.operationId as string,
        method,
        path: pathTemplate,
        parameters: [...shared.filter((p) => !own.some((o) => o.name === p.name && o.in === p.in)), ...own],
        requestBodySchema: bodyContent?.schema ?? null,
        requestBodyRequired: Boolean(body?.required),
        public: Array.isArray(operation.security) && operation.security.length === 0,
        sessionOnly: Array.isArray(operation.security) && operation.security.length > 0
          && (operation.security as JsonObject[]).every((requirement) => Object.keys(requirement).every((scheme) => scheme === 'sessionCookie')),
        keyOnly: Array.isArray(operation.security) && operation.security.length > 0
          && (operation.security as JsonObject[]).every((requirement) => Object.keys(requirement).every((scheme) => scheme === 'bearerKey')),
        exchange: operation['x-exchange'] === true,
        minRole: readMinRole(operation),
        messageSizedBody: operation['x-body-limit'] === 'message',
        readOnly: operation['x-read-only'] === true,
        responses,
      });
    }
  }
  // openapi.yaml's error codes; mailpit-api.yaml has none, its errors being plain text.
  const errorCodes = (((raw.components as JsonObject).schemas as JsonObject).ErrorCode as { enum: string[] } | undefined)?.enum ?? [];
  return { raw, operations, errorCodes };
}

/** An ajv instance that knows every component schema; coerceTypes is for query and path strings. */
export function createAjv(doc: OpenApiDocument, options: { coerceTypes?: boolean; useDefaults?: boolean } = {}): Ajv2020 {
  const ajv = new Ajv2020({
    allErrors: false,
    strict: true,
    allowUnionTypes: true,
    coerceTypes: options.coerceTypes ?? false,
    useDefaults: options.useDefaults ?? false,
  });
  addFormats.default(ajv);
  const schemas = (doc.raw.components as JsonObject).schemas as JsonObject;
  ajv.addSchema({ $id: COMPONENTS_ID, $defs: rewriteRefs(schemas) as JsonObject });
  return ajv;
}

export function compileSchema(ajv: Ajv2020, schema: JsonObject): ValidateFunction {
  return ajv.compile(rewriteRefs(schema) as JsonObject);
}

/**
 * An object whose every field is made by its function when first read, then kept: compiling an operation's validators
 * costs milliseconds each, and compiling every operation's at start was most of a server's start-up CPU, while a
 * server may never be asked for most of them.
 */
export function compiledOnFirstUse<T extends object>(makers: { [K in keyof T]: () => T[K] }): T {
  const made = new Map<keyof T, unknown>();
  const object = {} as T;
  for (const key of Object.keys(makers) as (keyof T)[]) {
    Object.defineProperty(object, key, {
      enumerable: true,
      get: () => {
        if (!made.has(key)) made.set(key, makers[key]());
        return made.get(key);
      },
    });
  }
  return object;
}

/** One readable sentence naming the offending field, for 400 answers and test failures. */
export function describeAjvError(where: string, error: ErrorObject | undefined): string {
  if (!error) return `${where} is invalid`;
  const field = `${where}${error.instancePath.replace(/\//g, '.')}`;
  switch (error.keyword) {
    case 'additionalProperties':
    case 'unevaluatedProperties': {
      const name = (error.params as { additionalProperty?: string; unevaluatedProperty?: string }).additionalProperty
        ?? (error.params as { unevaluatedProperty?: string }).unevaluatedProperty;
      return `${field}: unknown field '${name}'`;
    }
    case 'required':
      return `${field}: missing required field '${(error.params as { missingProperty: string }).missingProperty}'`;
    case 'pattern':
      return `${field}: has characters that are not allowed`;
    case 'enum':
      return `${field}: must be one of ${(error.params as { allowedValues: unknown[] }).allowedValues.map(String).join(', ')}`;
    default:
      return `${field}: ${error.message ?? 'is invalid'}`;
  }
}
