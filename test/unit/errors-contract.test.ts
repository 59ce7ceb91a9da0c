// The error table and openapi.yaml must name the same codes, with the same SMTP replies.
import { strict as assert } from 'node:assert';
import { ERROR_TABLE, type ErrorSpec } from '../../src/errors.js';
import { loadOpenApi } from '../../src/http/openapi.js';

describe('error codes', () => {
  const openapi = loadOpenApi();
  const table: [string, ErrorSpec][] = Object.entries(ERROR_TABLE);

  it('every code with an HTTP status is in the ErrorCode enum, and nothing else is', () => {
    const httpCodes = table.filter(([, spec]) => spec.http !== undefined).map(([code]) => code).sort();
    assert.deepEqual([...openapi.errorCodes].sort(), httpCodes);
  });

  it('every code with an SMTP reply is documented in x-smtp-replies with the same reply', () => {
    const documented = (openapi.raw['x-smtp-replies'] as { replies: Record<string, { code: number; enhanced: string }> }).replies;
    const smtpCodes = table.filter(([, spec]) => spec.smtp !== undefined);
    assert.deepEqual(Object.keys(documented).sort(), smtpCodes.map(([code]) => code).sort());
    for (const [code, spec] of smtpCodes) {
      assert.equal(documented[code]!.code, spec.smtp!.code, `${code} basic reply`);
      assert.equal(String(documented[code]!.enhanced), spec.smtp!.enhanced, `${code} enhanced code`);
    }
  });

  it('the status named in the ErrorCode description matches the table', () => {
    const description = ((openapi.raw.components as Record<string, unknown>).schemas as Record<string, { description: string }>).ErrorCode!.description;
    for (const [code, spec] of table) {
      if (spec.http === undefined) continue;
      const clause = description.split(';').find((part) => new RegExp(`\\b${code}\\b`).test(part));
      assert.ok(clause, `${code} missing from the ErrorCode description`);
      assert.match(clause, new RegExp(`\\b${spec.http}\\b`), `${code} should be documented as ${spec.http}`);
    }
  });
});
