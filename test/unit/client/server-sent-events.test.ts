// The client's reading of the server-sent events format: what the standard says a stream means, however its bytes
// are cut into chunks on the way (the server's own streams always arrive whole lines at a time on loopback).
import { strict as assert } from 'node:assert';
import { ServerSentEventParser, type ServerSentEvent } from '../../../src/client/server-sent-events.js';

/** Feeds `text` to a new parser in pieces cut at `cuts` (offsets), and returns every event it dispatched. */
function parse(text: string, cuts: number[] = []): { events: ServerSentEvent[]; parser: ServerSentEventParser } {
  const parser = new ServerSentEventParser();
  const events: ServerSentEvent[] = [];
  let from = 0;
  for (const cut of [...cuts, text.length]) {
    events.push(...parser.push(text.slice(from, cut)));
    from = cut;
  }
  return { events, parser };
}

describe('client: server-sent events parser', () => {
  const stream = 'retry: 2000\nevent: ready\nid: 7\ndata: {"inbox_id":"inb_1"}\n\n: heartbeat\n\nevent: message\nid: 8\ndata: {"a":1}\n\n';
  const expected: ServerSentEvent[] = [
    { event: 'ready', data: '{"inbox_id":"inb_1"}', id: '7' },
    { event: 'message', data: '{"a":1}', id: '8' },
  ];

  it('reads typed events with their ids, skips comments, and keeps the reconnection delay asked for', () => {
    const { events, parser } = parse(stream);
    assert.deepEqual(events, expected);
    assert.equal(parser.lastEventId, '8');
    assert.equal(parser.reconnectionTimeMs, 2000);
  });

  it('gives the same events however the stream is cut into chunks', () => {
    for (let cut = 1; cut < stream.length; cut++) assert.deepEqual(parse(stream, [cut]).events, expected, `cut at ${cut}`);
  });

  it('takes CRLF, CR and LF line ends alike, a CRLF split between two chunks included', () => {
    const crlf = 'event: message\r\nid: 1\r\ndata: x\r\n\r\n';
    assert.deepEqual(parse(crlf, [crlf.indexOf('\n')]).events, [{ event: 'message', data: 'x', id: '1' }]);
    assert.deepEqual(parse('data: y\r\r').events, [{ event: 'message', data: 'y', id: null }]);
  });

  it('joins data lines with line feeds, strips one space after the colon, and dispatches nothing without data', () => {
    assert.deepEqual(parse('data:  two spaces\ndata:none\n\nevent: empty\n\n').events, [{ event: 'message', data: ' two spaces\nnone', id: null }]);
  });

  it('keeps the last event id across events and ignores an id with NUL and a retry that is not a number', () => {
    const { events, parser } = parse('id: 5\ndata: a\n\ndata: b\n\nid: bad\0id\nretry: soon\ndata: c\n\n');
    assert.deepEqual(events.map((event) => event.id), ['5', '5', '5']);
    assert.equal(parser.lastEventId, '5');
    assert.equal(parser.reconnectionTimeMs, null);
  });

  it('holds an unfinished event until its blank line arrives', () => {
    const parser = new ServerSentEventParser('3');
    assert.deepEqual(parser.push('id: 4\ndata: half'), []);
    assert.deepEqual(parser.push('\n\n'), [{ event: 'message', data: 'half', id: '4' }]);
  });
});
