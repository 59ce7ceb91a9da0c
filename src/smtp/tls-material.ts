// TLS key and certificate for STARTTLS and SMTPS: the configured files, or a self-signed pair made once and kept.
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { workerFile } from '../worker-file.js';

export interface TlsMaterial {
  key: string;
  cert: string;
}

export async function loadTlsMaterial(options: { certPath: string | null; keyPath: string | null; dataDir: string; hostname: string }): Promise<TlsMaterial> {
  if (options.certPath && options.keyPath) {
    return { cert: fs.readFileSync(options.certPath, 'utf8'), key: fs.readFileSync(options.keyPath, 'utf8') };
  }
  const dir = path.join(options.dataDir, 'tls');
  const certFile = path.join(dir, 'self-signed-cert.pem');
  const keyFile = path.join(dir, 'self-signed-key.pem');
  if (fs.existsSync(certFile) && fs.existsSync(keyFile)) {
    return { cert: fs.readFileSync(certFile, 'utf8'), key: fs.readFileSync(keyFile, 'utf8') };
  }
  // Made on a thread of its own, once per data dir: the certificate library and its ASN.1 stack held several MB of the
  // server's heap for as long as it ran.
  const pems = await new Promise<TlsMaterial>((resolve, reject) => {
    const thread = new Worker(workerFile(import.meta.url, 'self-signed-thread'), { workerData: { hostname: options.hostname } });
    thread.once('message', resolve);
    thread.once('error', reject);
    thread.once('exit', (code) => reject(new Error(`the self-signed certificate thread ended (exit code ${code}) without a certificate`)));
  });
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(keyFile, pems.key, { mode: 0o600 });
  fs.writeFileSync(certFile, pems.cert);
  return pems;
}
