// The MCP server over stdio (`npm run --silent mcp`), for agent hosts that start it as a process: the service and
// the key come from MAIL_SANDBOX_URL and MAIL_SANDBOX_KEY. Stdout carries the protocol and nothing else; every word
// for people goes to stderr.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { MailSandbox, MailSandboxError } from '../client/index.js';
import { createMailSandboxMcpServer } from './mail-sandbox-mcp-server.js';
import { MCP_SERVER_VERSION } from './version.js';

/** Exit codes: 2 when the environment is incomplete, 1 when the service refuses the key or cannot be reached. */
const EXIT_USAGE = 2;
const EXIT_UNAVAILABLE = 1;

function fail(message: string, code: number): never {
  process.stderr.write(`mail-sandbox mcp: ${message}\n`);
  process.exit(code);
}

const baseUrl = process.env.MAIL_SANDBOX_URL?.trim() ?? '';
const apiKey = process.env.MAIL_SANDBOX_KEY?.trim() ?? '';
const missing = [baseUrl === '' && 'MAIL_SANDBOX_URL (where the service answers, e.g. http://127.0.0.1:8025)', apiKey === '' && 'MAIL_SANDBOX_KEY (an API key, sbx_api_…)'].filter(Boolean);
if (missing.length > 0) fail(`set ${missing.join(' and ')} in the environment`, EXIT_USAGE);
if (!URL.canParse(baseUrl) || !/^https?:$/.test(new URL(baseUrl).protocol)) fail(`MAIL_SANDBOX_URL must be an http(s) URL, not '${baseUrl}'`, EXIT_USAGE);

const sandbox = new MailSandbox({ baseUrl, apiKey });
// The key's access decides which tools exist, so it is learnt once, before the host asks for the list.
let allowWrites: boolean;
try {
  allowWrites = (await sandbox.workspace()).access === 'read_write';
} catch (error) {
  const reason = error instanceof MailSandboxError ? `${error.code}: ${error.message}` : `cannot reach ${baseUrl}: ${(error as Error).message}`;
  fail(`the service did not accept the key (${reason})`, EXIT_UNAVAILABLE);
}

const server = createMailSandboxMcpServer({ sandbox, allowWrites, version: MCP_SERVER_VERSION });
await server.connect(new StdioServerTransport());
process.stderr.write(`mail-sandbox mcp: serving ${baseUrl} over stdio with a ${allowWrites ? 'read_write' : 'read'} key\n`);
