// The examples openapi.yaml gives of responses are answers the schema allows: an example that drifts from its schema
// would teach a reader a shape the server never sends.
import { strict as assert } from 'node:assert';
import { compileSchema, createAjv, describeAjvError, loadOpenApi } from '../../src/http/openapi.js';

type MediaType = { schema?: Record<string, unknown>; examples?: Record<string, { value: unknown }> };

describe('openapi.yaml examples', () => {
  const openapi = loadOpenApi();
  const ajv = createAjv(openapi);
  const examples = openapi.operations.flatMap((operation) => Object.entries(operation.responses).flatMap(([status, response]) =>
    Object.entries((response.content ?? {}) as Record<string, MediaType>).flatMap(([type, media]) =>
      Object.entries(media.examples ?? {}).map(([name, example]) => ({ where: `${operation.operationId} ${status} ${type} example ${name}`, schema: media.schema!, value: example.value })))));

  it('has examples, and each one validates against its response schema', () => {
    assert.ok(examples.length > 0);
    for (const { where, schema, value } of examples) {
      const validate = compileSchema(ajv, schema);
      assert.ok(validate(value), `${where}: ${describeAjvError('example', validate.errors?.[0])}`);
    }
  });
});
