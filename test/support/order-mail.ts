// A shop's "order shipped" mail as such mail is written, for the viewer's first-screen test and the open-message
// bench: a centred 600 px table on a grey page, an inline logo (cid:), a heading (#first-line: the line a reader looks
// for first), a button, a long body and an invoice attached.
import type Mail from 'nodemailer/lib/mailer/index.js';

/** A 1x1 PNG: small, and decodable, so it shows as the inline logo. */
const LOGO_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

const ORDER_SHIPPED_HTML = [
  '<!DOCTYPE html><html><head><meta name="viewport" content="width=device-width"></head>',
  '<body style="margin:0;background:#f4f4f4;font-family:Arial,sans-serif">',
  '<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:24px 12px">',
  '<table role="presentation" width="600" cellpadding="0" cellspacing="0" style="background:#ffffff"><tr><td style="padding:24px">',
  '<img src="cid:logo@shop.example" alt="Shop" width="120" height="40" style="display:block">',
  '<h1 id="first-line" style="font-size:22px;margin:16px 0 8px">Your order has shipped!</h1>',
  '<p>Hi Alice, order #1234 is on its way and should arrive on Friday.</p>',
  '<p><a href="https://shop.example/track/1234" style="display:inline-block;background:#0a58ca;color:#ffffff;padding:10px 16px;text-decoration:none">Track your parcel</a></p>',
  ...Array.from({ length: 12 }, (_, index) => `<p>Item ${index + 1}: a thing you ordered, with its price and the number of them.</p>`),
  '<p style="font-size:12px;color:#666666"><a href="https://shop.example/unsubscribe">Unsubscribe</a></p>',
  '</td></tr></table></td></tr></table></body></html>',
].join('\n');

export function orderShippedMail(subject: string): Mail.Options {
  return {
    from: '"Shop" <orders@shop.example>',
    to: 'Alice <alice@example.com>',
    cc: 'Carol <carol@example.com>',
    subject,
    headers: { 'List-Unsubscribe': '<https://shop.example/unsubscribe?u=1>' },
    html: ORDER_SHIPPED_HTML,
    text: 'Your order has shipped. Track it at https://shop.example/track/1234',
    attachments: [
      { filename: 'logo.png', content: LOGO_PNG, contentType: 'image/png', cid: 'logo@shop.example' },
      { filename: 'invoice.pdf', content: Buffer.from('%PDF-1.4\n'), contentType: 'application/pdf' },
    ],
  };
}
