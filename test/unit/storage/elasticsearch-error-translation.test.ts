// What the cluster adapter makes of the Elasticsearch client's errors, built from constructed diagnostic results.
import { strict as assert } from 'node:assert';
import { errors, type DiagnosticResult } from '@elastic/elasticsearch';
import { AppError } from '../../../src/errors.js';
import { certainlyNotApplied, translateElasticsearchError } from '../../../src/storage/cluster/elasticsearch-setup.js';

/** What the transport hands an error: the response (when one came) and the request it answers. */
function diagnostic(statusCode: number | undefined, body?: unknown): DiagnosticResult {
  return {
    ...(statusCode === undefined ? {} : { statusCode }),
    ...(body === undefined ? {} : { body }),
    headers: {},
    warnings: null,
    meta: {
      context: null, name: 'elasticsearch-js', connection: null, attempts: 0, aborted: false,
      request: { params: { method: 'POST', path: '/sandbox-messages/_search' }, options: {}, id: 1 },
    },
  };
}

const responseError = (statusCode: number, body?: unknown) => new errors.ResponseError(diagnostic(statusCode, body));
/** An error response as Elasticsearch writes it: the body repeats the HTTP status. */
const esError = (status: number, type: string, reason: string) =>
  responseError(status, { error: { root_cause: [{ type, reason }], type, reason }, status });

function translated(error: unknown): AppError {
  const result = translateElasticsearchError(error);
  assert.ok(result instanceof AppError, `${String(error)} is translated`);
  assert.equal(result.cause, error);
  return result;
}

describe('translateElasticsearchError', () => {
  it('turns a server-side failure, overload or a missing index into storage_unavailable with the root cause', () => {
    const cases: [errors.ResponseError, string][] = [
      [esError(503, 'cluster_block_exception', 'index [x] blocked by: [FORBIDDEN/12/index read-only]'), 'cluster_block_exception: index [x] blocked by: [FORBIDDEN/12/index read-only]'],
      [esError(500, 'search_phase_execution_exception', 'all shards failed'), 'search_phase_execution_exception: all shards failed'],
      [esError(429, 'es_rejected_execution_exception', 'rejected execution'), 'es_rejected_execution_exception: rejected execution'],
      [esError(404, 'index_not_found_exception', 'no such index [sandbox-messages]'), 'index_not_found_exception: no such index [sandbox-messages]'],
      [responseError(502), 'HTTP 502'],
    ];
    for (const [error, reason] of cases) {
      const result = translated(error);
      assert.equal(result.code, 'storage_unavailable', reason);
      assert.equal(result.component, 'elasticsearch', 'counted against Elasticsearch in the metrics');
      assert.equal(result.message, `Elasticsearch is unavailable: ${reason}`);
    }
  });

  it('turns a query with more terms than the engine takes into invalid_query, whichever way it is reported', () => {
    for (const error of [
      esError(400, 'too_many_nested_clauses', 'Query contains too many nested clauses; maxClauseCount is set to 4096'),
      esError(400, 'search_phase_execution_exception', 'failed: TooManyClauses'),
      responseError(400, { error: { type: 'search_phase_execution_exception', reason: 'all shards failed', caused_by: { type: 'too_many_clauses', reason: 'too many' } }, status: 400 }),
    ]) {
      const result = translated(error);
      assert.equal(result.code, 'invalid_query');
      assert.equal(result.message, 'invalid query: it has more terms than the search engine accepts in one query');
    }
  });

  it('turns any other refusal into internal_error, never shown', () => {
    const result = translated(esError(400, 'mapper_parsing_exception', 'failed to parse field [received_at]'));
    assert.equal(result.code, 'internal_error');
    assert.equal(result.expose, false);
    assert.equal(result.message, 'Elasticsearch refused a request: mapper_parsing_exception: failed to parse field [received_at]');
  });

  it('turns a connection failure or a timeout into storage_unavailable', () => {
    const refused = translated(new errors.ConnectionError('connect ECONNREFUSED 127.0.0.1:9200', diagnostic(undefined)));
    assert.deepEqual([refused.code, refused.message], ['storage_unavailable', 'Elasticsearch is unavailable: connect ECONNREFUSED 127.0.0.1:9200']);
    const timeout = translated(new errors.TimeoutError('Request timed out', diagnostic(undefined)));
    assert.deepEqual([timeout.code, timeout.message], ['storage_unavailable', 'Elasticsearch is unavailable: no answer within 5000 ms']);
    const none = translated(new errors.NoLivingConnectionsError('There are no living connections', diagnostic(undefined)));
    assert.equal(none.code, 'storage_unavailable');
  });

  it('passes an AppError and errors that are not the client\'s through unchanged', () => {
    const appError = new AppError('not_found', 'no message');
    const bug = new TypeError('x is undefined');
    assert.equal(translateElasticsearchError(appError), appError);
    assert.equal(translateElasticsearchError(bug), bug);
  });
});

describe('certainlyNotApplied', () => {
  it('is true only when Elasticsearch answered with an error or no connection was ever made', () => {
    assert.equal(certainlyNotApplied(esError(409, 'version_conflict_engine_exception', 'conflict')), true);
    assert.equal(certainlyNotApplied(new errors.NoLivingConnectionsError('There are no living connections', diagnostic(undefined))), true);
    for (const refusal of ['connect ECONNREFUSED 127.0.0.1:9200', 'getaddrinfo ENOTFOUND elasticsearch', 'getaddrinfo EAI_AGAIN elasticsearch']) {
      assert.equal(certainlyNotApplied(new errors.ConnectionError(refusal, diagnostic(undefined))), true, refusal);
    }
    assert.equal(certainlyNotApplied(new errors.ConnectionError('socket hang up', diagnostic(undefined))), false, 'the request may have arrived');
    assert.equal(certainlyNotApplied(new errors.TimeoutError('Request timed out', diagnostic(undefined))), false);
    assert.equal(certainlyNotApplied(new Error('anything else')), false);
  });
});
