// Writes openapi.yaml and mailpit-api.yaml as JSON into dist/contracts/, each with the SHA-256 of the YAML it was made
// from: a server reads the JSON when the hash matches its YAML (src/http/openapi.ts), since parsing the YAML was a
// large part of every start's CPU. Run by `npm run build` and scripts/build-if-needed.mjs.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'dist', 'contracts');
fs.mkdirSync(out, { recursive: true });
for (const name of ['openapi', 'mailpit-api']) {
  const text = fs.readFileSync(path.join(root, `${name}.yaml`), 'utf8');
  const sha256 = createHash('sha256').update(text).digest('hex');
  fs.writeFileSync(path.join(out, `${name}.json`), JSON.stringify({ sha256, document: parse(text) }));
}
