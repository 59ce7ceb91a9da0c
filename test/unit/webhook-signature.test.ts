// The webhook signature, checked the way a receiver written from the spec alone would check it.
import { strict as assert } from 'node:assert';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { signatureHeader } from '../../src/outbound/signature.js';

/** A receiver's check, from the spec's words: HMAC-SHA256 of "<t>.<raw body>", hex, constant-time compare, fresh t. */
function receiverAccepts(header: string, rawBody: Buffer, secret: string, now: Date): boolean {
  const fields = Object.fromEntries(header.split(',').map((part) => part.split('=') as [string, string]));
  const t = Number(fields.t);
  if (!Number.isInteger(t) || Math.abs(now.getTime() / 1000 - t) > 300) return false;
  const expected = createHmac('sha256', secret).update(Buffer.concat([Buffer.from(`${t}.`), rawBody])).digest();
  const given = Buffer.from(fields.v1 ?? '', 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

describe('webhook signature', () => {
  const secret = 'whsec_test';
  const body = Buffer.from('{"event":"message.received","data":{"subject":"héllo"}}');
  const at = new Date('2026-11-21T12:00:00.900Z');

  it('is t=<unix seconds>,v1=<64 lowercase hex> and verifies as the spec describes', () => {
    const header = signatureHeader(secret, body, at);
    assert.match(header, /^t=1795262400,v1=[0-9a-f]{64}$/);
    assert.equal(receiverAccepts(header, body, secret, at), true);
  });

  it('fails a tampered body, another secret and a stale timestamp', () => {
    const header = signatureHeader(secret, body, at);
    assert.equal(receiverAccepts(header, Buffer.from(body.toString().replace('héllo', 'hello')), secret, at), false);
    assert.equal(receiverAccepts(header, body, 'whsec_other', at), false);
    assert.equal(receiverAccepts(header, body, secret, new Date(at.getTime() + 6 * 60_000)), false);
  });
});
