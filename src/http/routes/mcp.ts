// /mcp: the MCP server over streamable HTTP, without sessions. The router has already authenticated the bearer key,
// counted the request against the workspace's rate and read the body; each POST then gets a server and a transport of
// its own, whose tools call this API back through the typed client with the same key, so every permission, limit and
// share applies to them exactly as to any other API request.
import type { IncomingMessage } from 'node:http';
import { AppError } from '../../errors.js';
import { handlers } from '../handler.js';

/**
 * The MCP SDK, its schema library and the typed client, loaded by the first /mcp request: their schemas held ~5 MB
 * of every server's heap from the start, and most servers never see an MCP request.
 */
const importMcpModules = () => Promise.all([
  import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
  import('../../client/index.js'),
  import('../../mcp/mail-sandbox-mcp-server.js'),
  import('../../mcp/version.js'),
]);
let mcpModules: ReturnType<typeof importMcpModules> | null = null;

export function mcpHandlers(basePath: string) {
  const onlyPost = async (): Promise<never> => {
    throw new AppError('method_not_allowed', 'this MCP server keeps no sessions: it answers POST /mcp only, each request on its own', { headers: { Allow: 'POST' } });
  };
  return handlers({
    mcpRequest: async ({ principal, body }) => ({
      exchange: async (req, res) => {
        const [{ StreamableHTTPServerTransport }, { MailSandbox }, { createMailSandboxMcpServer }, { MCP_SERVER_VERSION }] = await (mcpModules ??= importMcpModules());
        const sandbox = new MailSandbox({ baseUrl: ownApiUrl(req, basePath), apiKey: bearerKeyOf(req) });
        const server = createMailSandboxMcpServer({ sandbox, allowWrites: principal.kind === 'key' && principal.access === 'read_write', version: MCP_SERVER_VERSION });
        // No session id: nothing is kept between requests, so any node of a cluster answers any of them.
        const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
        // However the response ends, a tool still waiting is stopped with it (closing aborts the tools' signals).
        res.once('close', () => void server.close());
        await server.connect(transport);
        await transport.handleRequest(req, res, body);
      },
    }),
    mcpOpenStream: onlyPost,
    mcpEndSession: onlyPost,
  });
}

/**
 * This server as its own client reaches it: the address and port the request came in on, which the server listens
 * on and can always reach itself, with the base path. Not SANDBOX_PUBLIC_URL: behind a proxy, that may not be
 * reachable from here, and the calls would leave the host only to come back. The address is a literal, which every
 * Host check answers.
 */
function ownApiUrl(req: IncomingMessage, basePath: string): string {
  const { localAddress, localPort } = req.socket;
  if (localAddress === undefined || localPort === undefined) throw new AppError('internal_error', 'the request\'s connection has no local address');
  const host = localAddress.includes(':') ? `[${localAddress}]` : localAddress;
  return `http://${host}:${localPort}${basePath}`;
}

/** The key the router authenticated this request with (the operation takes a bearer key and nothing else). */
function bearerKeyOf(req: IncomingMessage): string {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  if (!match) throw new AppError('unauthorized', 'the Authorization header must be "Bearer <API key>"');
  return match[1]!;
}
