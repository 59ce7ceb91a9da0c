// The version the MCP handshake reports: the package's own, so a host's logs say which build answered.
import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../project-root.js';

export const MCP_SERVER_VERSION = (JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
