// Checks every answer of the Mailpit-compatible API against mailpit-api.yaml, whichever client asked: fetch is watched
// while a suite runs, so the published `mailpit-api` client is driven unmodified and its answers are still checked.
import { strict as assert } from 'node:assert';
import type { ValidateFunction } from 'ajv';
import { compileSchema, createAjv, describeAjvError, loadOpenApi, MAILPIT_API_FILE, type OperationSpec } from '../../src/http/openapi.js';

const contract = loadOpenApi(MAILPIT_API_FILE);
const ajv = createAjv(contract);
const validators = new Map<string, ValidateFunction>();

/** The operation a path (after any base path, leading slashes collapsed) and method name, or null. */
function operationOf(method: string, pathname: string): OperationSpec | null {
  for (const operation of contract.operations) {
    if (operation.method.toUpperCase() !== method.toUpperCase()) continue;
    const pattern = operation.path.replace(/[.]/g, '\\.').replace(/\{\w+\}/g, '[^/]+');
    if (new RegExp(`^${pattern}$`).test(pathname)) return operation;
  }
  return null;
}

/** Fails unless the answer is one the contract declares for its operation: status, content type and body. */
export function assertMailpitAnswer(method: string, pathname: string, status: number, contentType: string, body: Buffer): void {
  const where = `${method} ${pathname} ${status}`;
  assert.ok(status < 500, `${where}: a server error: ${body.toString().slice(0, 300)}`);
  const operation = operationOf(method, pathname);
  if (operation === null) {
    // A path no operation has: Mailpit's plain 404 (or 405 for another method of a path that has operations).
    assert.ok(status === 404 || status === 405, `${where}: no operation, so 404 or 405 is expected`);
    assert.match(contentType, /^text\/plain/, `${where}: errors are plain text`);
    return;
  }
  const response = operation.responses[String(status)] ?? operation.responses.default;
  assert.ok(response, `${where}: status ${status} is not declared for ${operation.operationId}`);
  assert.ok(status === 200 || operation.responses[String(status)] === undefined, `${where}: only 200 is a success`);
  const declared = Object.entries(response.content ?? {});
  const mediaType = contentType.split(';')[0]!.trim();
  // A part keeps its attachment's own type: the contract says octet-stream for "whatever the file is".
  const entry = declared.find(([type]) => type === mediaType) ?? declared.find(([type]) => type === 'application/octet-stream');
  assert.ok(entry, `${where}: content type '${contentType}' is not one of ${declared.map(([type]) => type).join(', ')}`);
  const [type, { schema }] = entry;
  if (!schema) return;
  const value: unknown = type === 'application/json' ? JSON.parse(body.toString('utf8')) : body.toString('utf8');
  const key = `${operation.operationId} ${status} ${type}`;
  let validate = validators.get(key);
  if (!validate) {
    validate = compileSchema(ajv, schema);
    validators.set(key, validate);
  }
  assert.ok(validate(value), `${where} breaks mailpit-api.yaml: ${describeAjvError('response', validate.errors?.[0])}\n${body.toString().slice(0, 500)}`);
}

/** Fails unless `frame` is an Event of mailpit-api.yaml: one frame of the /api/events WebSocket. */
export function assertMailpitEvent(frame: unknown): void {
  let validate = validators.get('Event');
  if (!validate) {
    validate = compileSchema(ajv, { $ref: '#/components/schemas/Event' });
    validators.set('Event', validate);
  }
  assert.ok(validate(frame), `an /api/events frame breaks mailpit-api.yaml: ${describeAjvError('frame', validate.errors?.[0])}\n${JSON.stringify(frame).slice(0, 500)}`);
}

export interface MailpitAnswerWatch {
  /** How many answers were checked. */
  readonly checked: number;
  /** The answers that broke the contract, each described. */
  readonly failures: string[];
  stop(): void;
}

/**
 * From now until stop(), every fetch answer from `origin` on a Mailpit path is checked against the contract. A failure
 * is recorded (the caller asserts there are none), never thrown into the client under test.
 */
export function watchMailpitAnswers(origin: string, basePath = ''): MailpitAnswerWatch {
  const original = globalThis.fetch;
  const watch = { checked: 0, failures: [] as string[], stop: () => { globalThis.fetch = original; } };
  globalThis.fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const response = await original(input, init);
    const url = new URL(input instanceof Request ? input.url : String(input));
    let pathname = url.pathname;
    if (url.origin !== origin || !pathname.startsWith(basePath)) return response;
    pathname = pathname.slice(basePath.length).replace(/^\/+/, '/');
    if (!/^\/(api\/v1|view)\//.test(pathname)) return response;
    const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
    const body = Buffer.from(await response.clone().arrayBuffer());
    try {
      assertMailpitAnswer(method, pathname, response.status, response.headers.get('content-type') ?? '', body);
    } catch (error) {
      watch.failures.push((error as Error).message);
    }
    watch.checked++;
    return response;
  };
  return watch;
}
