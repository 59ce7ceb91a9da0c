// Writes src/contract/api-types.ts, the TypeScript types of openapi.yaml and the value lists of its enums, and
// src/contract/mailpit-api-types.ts, those of mailpit-api.yaml; `npm run generate:api-types` runs it, and
// test/unit/api-types.test.ts fails when a checked-in file differs from what this produces.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { loadOpenApi, MAILPIT_API_FILE } from '../src/http/openapi.js';
import { PROJECT_ROOT } from '../src/project-root.js';

export const API_TYPES_FILE = path.join(PROJECT_ROOT, 'src', 'contract', 'api-types.ts');
const SPEC_FILE = path.join(PROJECT_ROOT, 'openapi.yaml');
export const MAILPIT_API_TYPES_FILE = path.join(PROJECT_ROOT, 'src', 'contract', 'mailpit-api-types.ts');

const HEADER = `// Types of the HTTP API and the values of its enums, generated from openapi.yaml by scripts/generate-api-types.ts (openapi-typescript): do not
// edit; run \`npm run generate:api-types\` after changing openapi.yaml (the unit tests fail while this file is stale).
`;

/**
 * What openapi-typescript cannot say: which parameters request validation fills from their default (they are
 * optional to a client but always present to a handler), which operations need no credentials, which take a session only, and which write their own response.
 */
function validationFacts(): string {
  const { operations } = loadOpenApi(SPEC_FILE);
  const defaulted = operations.flatMap(({ operationId, parameters }) => {
    const locations = (['path', 'query', 'header'] as const).flatMap((location) => {
      const names = parameters.filter((parameter) => parameter.in === location && parameter.schema.default !== undefined).map((parameter) => JSON.stringify(parameter.name));
      return names.length === 0 ? [] : [`        ${location}: ${names.join(' | ')};`];
    });
    return locations.length === 0 ? [] : [`    ${operationId}: {`, ...locations, '    };'];
  });
  const publicIds = operations.filter((operation) => operation.public).map((operation) => JSON.stringify(operation.operationId));
  const sessionIds = operations.filter((operation) => operation.sessionOnly).map((operation) => JSON.stringify(operation.operationId));
  const exchangeIds = operations.filter((operation) => operation.exchange).map((operation) => JSON.stringify(operation.operationId));
  return [
    '/** Parameters, by operation and location, that request validation fills from their `default` when a request leaves them out. */',
    'export interface defaultedParameters {',
    ...defaulted,
    '}',
    '/** Operations that declare `security: []`: they take no credentials (sign-in, one-time links, signed file links). */',
    `export type publicOperations = ${publicIds.length === 0 ? 'never' : publicIds.join(' | ')};`,
    '/** Operations whose security lists only `sessionCookie`: dashboard-only, never reached with an API key. */',
    `export type sessionOperations = ${sessionIds.length === 0 ? 'never' : sessionIds.join(' | ')};`,
    '/** Operations marked `x-exchange: true`: their handler writes the response itself (the MCP endpoint). */',
    `export type exchangeOperations = ${exchangeIds.length === 0 ? 'never' : exchangeIds.join(' | ')};`,
    '',
  ].join('\n');
}

export async function generateApiTypes(): Promise<string> {
  // Request bodies are validated without filling defaults, so a property with a default is still optional there.
  // enumValues adds each enum's values as an array, so code that lists them (a form's options, a test) reads the contract.
  const ast = await openapiTS(pathToFileURL(SPEC_FILE), { defaultNonNullable: false, silent: true, enumValues: true });
  return `${HEADER}${astToString(ast)}${validationFacts()}`;
}

const MAILPIT_HEADER = `// Types of the Mailpit-compatible API, generated from mailpit-api.yaml by scripts/generate-api-types.ts (openapi-typescript): do
// not edit; run \`npm run generate:api-types\` after changing mailpit-api.yaml (the unit tests fail while this file is stale).
`;

export async function generateMailpitApiTypes(): Promise<string> {
  const ast = await openapiTS(pathToFileURL(MAILPIT_API_FILE), { defaultNonNullable: false, silent: true });
  return `${MAILPIT_HEADER}${astToString(ast)}`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  fs.writeFileSync(API_TYPES_FILE, await generateApiTypes());
  console.log(`wrote ${path.relative(PROJECT_ROOT, API_TYPES_FILE)}`);
  fs.writeFileSync(MAILPIT_API_TYPES_FILE, await generateMailpitApiTypes());
  console.log(`wrote ${path.relative(PROJECT_ROOT, MAILPIT_API_TYPES_FILE)}`);
}
