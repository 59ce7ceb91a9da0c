// X-Sandbox-Signature: t=<unix seconds>,v1=<lowercase hex HMAC-SHA256 of "<t>.<raw body>"> under the webhook secret.
import { createHmac } from 'node:crypto';

export function signatureHeader(secret: string, body: Buffer, at: Date): string {
  const t = Math.floor(at.getTime() / 1000);
  // The exact bytes sent are signed, so a receiver verifies before parsing anything.
  const v1 = createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex');
  return `t=${t},v1=${v1}`;
}
