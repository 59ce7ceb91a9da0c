// DKIM for tests of the authentication check: real RSA and Ed25519 key pairs with the TXT records a domain publishes
// for them, messages composed by nodemailer, and signatures and ARC seals made by mailauth's signer.
import crypto from 'node:crypto';
import { dkimSign, sealMessage, type ARCSealOptions } from 'mailauth';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import type Mail from 'nodemailer/lib/mailer/index.js';

export interface DkimKey {
  algorithm: 'rsa-sha256' | 'ed25519-sha256';
  /** PKCS #8 PEM. */
  privateKey: string;
  /** The TXT record that publishes the public key at `<selector>._domainkey.<domain>`. */
  record: string;
}

export function rsaKey(bits = 2048): DkimKey {
  const { privateKey, publicKey } = crypto.generateKeyPairSync('rsa', { modulusLength: bits });
  return {
    algorithm: 'rsa-sha256',
    privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    record: `v=DKIM1; k=rsa; p=${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`,
  };
}

/** RFC 8463: the record holds the raw 32-byte public key, the end of its SPKI encoding. */
export function ed25519Key(): DkimKey {
  const { privateKey, publicKey } = crypto.generateKeyPairSync('ed25519');
  return {
    algorithm: 'ed25519-sha256',
    privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    record: `v=DKIM1; k=ed25519; p=${publicKey.export({ type: 'spki', format: 'der' }).subarray(-32).toString('base64')}`,
  };
}

/** The message nodemailer builds of `mail`, as it would send it. */
export function composed(mail: Mail.Options): Promise<Buffer> {
  return new MailComposer(mail).compile().build();
}

export interface Signer {
  domain: string;
  selector: string;
  key: DkimKey;
  /** The header fields to sign; mailauth's default list (those present of From, To, Subject, Date, ...) otherwise. */
  headerList?: string[];
}

/** The message with a DKIM-Signature field added on top. */
export async function signed(message: Buffer, signer: Signer): Promise<Buffer> {
  const signature = { signingDomain: signer.domain, selector: signer.selector, privateKey: signer.key.privateKey, algorithm: signer.key.algorithm };
  // mailauth signs what signatureData lists; its declared options also ask for one signature's fields at the top.
  // It reads headerList as field names joined by colons (lib/tools.js, getSigningHeaderLines), not as the array its types declare.
  const headerList = signer.headerList ? { headerList: signer.headerList.join(':') as unknown as string[] } : {};
  const { signatures, errors } = await dkimSign(message, { ...signature, signatureData: [signature], ...headerList });
  if (errors.length > 0) throw errors[0];
  return Buffer.concat([Buffer.from(signatures), message]);
}

/** The message with an ARC set added on top, as a forwarding server that checked it (`authResults`) would seal it. */
export async function sealed(message: Buffer, sealer: Signer & { authResults: string }): Promise<Buffer> {
  // The first set of a chain (cv=none), carrying what the sealer found; mailauth's declared seal options leave both out.
  const seal: ARCSealOptions & { authResults: string; cv: 'none' } = {
    signingDomain: sealer.domain, selector: sealer.selector, privateKey: sealer.key.privateKey, algorithm: sealer.key.algorithm, authResults: sealer.authResults, cv: 'none',
  };
  const set = await sealMessage(message, seal);
  return Buffer.concat([set, message]);
}
