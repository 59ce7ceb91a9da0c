// A real HTTP client for the API that checks every response against openapi.yaml before returning it.
import { strict as assert } from 'node:assert';
import type { ValidateFunction } from 'ajv';
import { compileSchema, createAjv, describeAjvError, loadOpenApi, type OperationSpec } from '../../src/http/openapi.js';

const openapi = loadOpenApi();
const ajv = createAjv(openapi);
const validators = new Map<string, ValidateFunction>();
/** Header values are strings; the schemas say what they hold (Retry-After: an integer). */
const headerAjv = createAjv(openapi, { coerceTypes: true });
const headerValidators = new Map<string, ValidateFunction>();

interface HeaderSpec {
  required?: boolean;
  schema: Record<string, unknown>;
}

/** A response's declared headers, each resolved from its `#/components/headers/...` reference. */
function declaredHeaders(response: object): [string, HeaderSpec][] {
  const headers = (response as { headers?: Record<string, HeaderSpec | { $ref: string }> }).headers ?? {};
  const components = (openapi.raw.components as { headers?: Record<string, HeaderSpec> }).headers ?? {};
  return Object.entries(headers).map(([name, spec]) => {
    if (!('$ref' in spec)) return [name, spec];
    const resolved = components[spec.$ref.replace('#/components/headers/', '')];
    assert.ok(resolved, `openapi.yaml: unresolved header reference ${spec.$ref}`);
    return [name, resolved];
  });
}

function matchOperation(method: string, pathname: string): OperationSpec | null {
  for (const operation of openapi.operations) {
    if (operation.method !== method.toLowerCase()) continue;
    const pattern = new RegExp(`^${operation.path.replace(/\{\w+\}/g, '[^/]+')}$`);
    if (pattern.test(pathname)) return operation;
  }
  return null;
}

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  /** Parsed JSON for JSON responses. */
  json: T;
  bytes: Buffer;
}

/** Validates a response (and its declared headers, when they are given) against the operation's declared response for its status. */
export function assertMatchesContract(method: string, pathname: string, status: number, contentType: string, body: Buffer, headers?: Headers): void {
  const operation = matchOperation(method, pathname);
  if (!operation) {
    // Unknown routes still answer in the error envelope.
    const validate = compileSchema(ajv, { $ref: '#/components/schemas/ErrorEnvelope' });
    assert.ok(validate(JSON.parse(body.toString())), `${method} ${pathname}: ${describeAjvError('response', validate.errors?.[0])}`);
    return;
  }
  const response = operation.responses[String(status)] ?? operation.responses[`${String(status)[0]}XX`];
  assert.ok(response, `${method} ${pathname}: status ${status} is not declared in openapi.yaml for ${operation.operationId}`);
  // A response declared without content (MCP's 202 for a notification) must come without a body.
  if (response.content === undefined) {
    assert.equal(body.length, 0, `${method} ${pathname} ${status}: declared without content, but a body came`);
    return;
  }
  const mediaType = contentType.split(';')[0]!.trim();
  const content = response.content ?? {};
  // A declared range such as */* or image/* covers every concrete type in it.
  const declared = [mediaType, `${mediaType.split('/')[0]}/*`, '*/*'].find((candidate) => content[candidate]);
  assert.ok(declared, `${method} ${pathname} ${status}: content type ${mediaType} not declared (declared: ${Object.keys(content).join(', ')})`);
  if (headers) {
    for (const [name, spec] of declaredHeaders(response)) {
      const value = headers.get(name);
      if (value === null) {
        assert.ok(!spec.required, `${method} ${pathname} ${status}: the required header ${name} is missing`);
        continue;
      }
      const key = `${operation.operationId} ${status} ${name}`;
      let validate = headerValidators.get(key);
      if (!validate) {
        validate = compileSchema(headerAjv, { type: 'object', properties: { value: spec.schema } });
        headerValidators.set(key, validate);
      }
      assert.ok(validate({ value }), `${method} ${pathname} ${status}: header ${name}: ${value} breaks the contract: ${describeAjvError(name, validate.errors?.[0])}`);
    }
  }
  const schema = content[declared]!.schema;
  if (mediaType !== 'application/json' || !schema) return;
  const key = `${operation.operationId} ${status}`;
  let validate = validators.get(key);
  if (!validate) {
    validate = compileSchema(ajv, schema);
    validators.set(key, validate);
  }
  const parsed = JSON.parse(body.toString()) as unknown;
  assert.ok(validate(parsed), `${method} ${pathname} ${status} breaks the contract: ${describeAjvError('response', validate.errors?.[0])}\n${body.toString().slice(0, 500)}`);
}

export class ApiClient {
  constructor(readonly baseUrl: string, readonly key: string | null) {}

  withKey(key: string | null): ApiClient {
    return new ApiClient(this.baseUrl, key);
  }

  async request<T = unknown>(method: string, path: string, options: { body?: unknown; rawBody?: string | Buffer; headers?: Record<string, string> } = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (this.key !== null) headers.authorization ??= `Bearer ${this.key}`;
    let body: string | Buffer | undefined = options.rawBody;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    // A base URL may carry SANDBOX_BASE_PATH: paths are under it, and the contract knows them without it.
    const base = new URL(this.baseUrl);
    const basePath = base.pathname.replace(/\/$/, '');
    const url = /^https?:/.test(path) ? new URL(path) : new URL(basePath + path, base);
    const response = await fetch(url, { method, headers, body });
    const bytes = Buffer.from(await response.arrayBuffer());
    const contentType = response.headers.get('content-type') ?? '';
    const pathname = basePath !== '' && url.pathname.startsWith(`${basePath}/`) ? url.pathname.slice(basePath.length) : url.pathname;
    assertMatchesContract(method, pathname, response.status, contentType, bytes, response.headers);
    const json = contentType.startsWith('application/json') ? (JSON.parse(bytes.toString()) as T) : (undefined as T);
    return { status: response.status, headers: response.headers, json, bytes };
  }

  get<T = unknown>(path: string, headers?: Record<string, string>) {
    return this.request<T>('GET', path, { headers });
  }

  post<T = unknown>(path: string, body?: unknown) {
    return this.request<T>('POST', path, { body });
  }

  delete<T = unknown>(path: string) {
    return this.request<T>('DELETE', path);
  }
}
