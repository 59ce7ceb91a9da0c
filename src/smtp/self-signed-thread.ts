// Entry of the short-lived thread that makes the self-signed TLS pair (tls-material.ts): the certificate library and
// its ASN.1 stack load there and go when it ends, instead of staying in the server's heap for good.
import { parentPort, workerData } from 'node:worker_threads';
import { generate } from 'selfsigned';

const { hostname } = workerData as { hostname: string };
const pems = await generate([{ name: 'commonName', value: hostname }], {
  keySize: 2048,
  algorithm: 'sha256',
  notAfterDate: new Date(Date.now() + 10 * 365 * 24 * 3600 * 1000),
  extensions: [{ name: 'subjectAltName', altNames: [
    { type: 2, value: hostname },
    { type: 2, value: 'localhost' },
    { type: 7, ip: '127.0.0.1' },
  ] }],
});
parentPort!.postMessage({ key: pems.private, cert: pems.cert });
