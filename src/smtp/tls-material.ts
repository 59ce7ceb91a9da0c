// TLS key and certificate for STARTTLS and SMTPS: the configured files, or a self-signed pair made once and kept.
import fs from 'node:fs';
import path from 'node:path';

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
  const altNames = [
    { type: 2 as const, value: options.hostname },
    { type: 2 as const, value: 'localhost' },
    { type: 7 as const, ip: '127.0.0.1' },
  ];
  // Loaded only to make the pair, once per data dir: the certificate library and its ASN.1 stack cost a server ~MB.
  const { generate } = await import('selfsigned');
  const pems = await generate([{ name: 'commonName', value: options.hostname }], {
    keySize: 2048,
    algorithm: 'sha256',
    notAfterDate: new Date(Date.now() + 10 * 365 * 24 * 3600 * 1000),
    extensions: [{ name: 'subjectAltName', altNames }],
  });
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(keyFile, pems.private, { mode: 0o600 });
  fs.writeFileSync(certFile, pems.cert);
  return { cert: pems.cert, key: pems.private };
}
