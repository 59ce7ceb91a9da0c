// InProcessHttp: a fetch answered by a request handler in this process, over an in-memory connection, as fetch would
// be answered over the network: method, path, headers and body in; status, headers and body out; aborts both ways.
import { strict as assert } from 'node:assert';
import type http from 'node:http';
import { InProcessHttp } from '../../../src/http/in-process-fetch.js';

/** A handler that answers what it was asked, as JSON, and keeps the requests it saw. */
function echoing(seen: http.IncomingMessage[] = []): http.RequestListener {
  return (req, res) => {
    seen.push(req);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      res.setHeader('Content-Type', 'application/json');
      res.setHeader('Set-Cookie', ['a=1', 'b=2']);
      res.end(JSON.stringify({
        method: req.method, url: req.url, host: req.headers.host, requestId: req.headers['x-request-id'], authorization: req.headers.authorization,
        remoteAddress: req.socket.remoteAddress, body: Buffer.concat(chunks).toString(),
      }));
    });
  };
}

describe('InProcessHttp', () => {
  it('hands the request to the handler as from the client address given, and the answer back as a Response', async () => {
    const inProcess = new InProcessHttp();
    inProcess.serve(echoing());
    const response = await inProcess.fetchFrom('203.0.113.7', 'req-1')(new Request('http://sandbox.test:8025/base/v1/x?q=a%20b', {
      method: 'POST', headers: { Authorization: 'Bearer k', 'Content-Type': 'application/json' }, body: '{"a":1}',
    }));
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/json');
    assert.deepEqual(response.headers.getSetCookie(), ['a=1', 'b=2']);
    assert.deepEqual(await response.json(), {
      method: 'POST', url: '/base/v1/x?q=a%20b', host: 'sandbox.test:8025', requestId: 'req-1', authorization: 'Bearer k', remoteAddress: '203.0.113.7', body: '{"a":1}',
    });
  });

  it('carries a large answer whole, at the pace it is read', async () => {
    const inProcess = new InProcessHttp();
    const size = 8 * 1024 * 1024;
    inProcess.serve((_req, res) => {
      const chunk = Buffer.alloc(64 * 1024, 'x');
      let written = 0;
      const writeMore = () => {
        while (written < size) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', writeMore);
        }
        res.end();
      };
      writeMore();
    });
    const response = await inProcess.fetchFrom(null, null)(new Request('http://localhost/big'));
    assert.equal((await response.arrayBuffer()).byteLength, size);
  });

  it('answers a status without a body with a Response without one', async () => {
    const inProcess = new InProcessHttp();
    inProcess.serve((_req, res) => {
      res.statusCode = 204;
      res.end();
    });
    const response = await inProcess.fetchFrom(null, null)(new Request('http://localhost/nothing', { method: 'DELETE' }));
    assert.equal(response.status, 204);
    assert.equal(response.body, null);
  });

  it('refuses every request once closed, as a closed listener refuses connections', async () => {
    const inProcess = new InProcessHttp();
    let requests = 0;
    inProcess.serve((_req, res) => {
      requests++;
      res.end();
    });
    const fetchIn = inProcess.fetchFrom(null, null);
    assert.equal((await fetchIn(new Request('http://localhost/before'))).status, 200);
    inProcess.close();
    await assert.rejects(fetchIn(new Request('http://localhost/after')), /shutting down/);
    assert.equal(requests, 1);
  });

  it('rejects with the signal\'s reason on abort, and the handler sees its client go away', async () => {
    const inProcess = new InProcessHttp();
    let requests = 0;
    let arrived!: () => void;
    let closed!: () => void;
    const handlerHasIt = new Promise<void>((resolve) => (arrived = resolve));
    const handlerSawClose = new Promise<void>((resolve) => (closed = resolve));
    inProcess.serve((_req, res) => {
      requests++;
      arrived();
      // Never answers: a wait that is held until its client leaves.
      res.once('close', () => closed());
    });
    const controller = new AbortController();
    const fetching = inProcess.fetchFrom(null, null)(new Request('http://localhost/wait', { signal: controller.signal }));
    await handlerHasIt;
    const reason = new Error('the tool call was cancelled');
    controller.abort(reason);
    await assert.rejects(fetching, (error) => error === reason);
    await handlerSawClose;
    await assert.rejects(inProcess.fetchFrom(null, null)(new Request('http://localhost/wait', { signal: controller.signal })), (error) => error === reason, 'an aborted signal sends nothing');
    assert.equal(requests, 1);
  });
});
