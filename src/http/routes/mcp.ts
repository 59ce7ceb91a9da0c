// /mcp: the MCP server over streamable HTTP, without sessions. The router has already authenticated the bearer key,
// counted the request against the workspace's rate and read the body; each POST then gets a server and a transport of
// its own, whose tools call the API through the typed client with the same key. The client's fetch hands each request
// to this server's own HTTP app in-process (in-process-fetch.ts), so the one code path of the API's checks applies to
// them exactly as to any other request, and no tool call takes a socket or a place under the connection caps.
import type { IncomingMessage } from 'node:http';
import { AppError } from '../../errors.js';
import { OpenPerWorkspace } from '../../services/realtime/open-per-workspace.js';
import { handlers } from '../handler.js';
import type { InProcessHttp } from '../in-process-fetch.js';

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

export interface McpLimits {
  /** SANDBOX_MCP_CALLS_PER_WORKSPACE: tool calls one workspace may have running on this node at once. */
  callsPerWorkspace: number;
  /** SANDBOX_MCP_MAX_BATCH: JSON-RPC messages one request may carry. */
  maxBatch: number;
}

export function mcpHandlers(basePath: string, inProcess: InProcessHttp, limits: McpLimits) {
  const onlyPost = async (): Promise<never> => {
    throw new AppError('method_not_allowed', 'this MCP server keeps no sessions: it answers POST /mcp only, each request on its own', { headers: { Allow: 'POST' } });
  };
  // A tool call holds its API requests (a wait, up to two minutes) for as long as it runs: without a share, one
  // workspace's batches of waits would take every wait, query and reader thread of the node.
  const callsRunning = new OpenPerWorkspace(limits.callsPerWorkspace, (limit) => new AppError('too_many_mcp_calls',
    `more than ${limit} MCP tool calls at once for this workspace (SANDBOX_MCP_CALLS_PER_WORKSPACE); call again when one of them has answered`));
  return handlers({
    mcpRequest: async ({ principal, body, client }) => {
      if (Array.isArray(body) && body.length > limits.maxBatch) {
        throw new AppError('mcp_batch_too_large', `a JSON-RPC batch of ${body.length} messages; one request carries at most ${limits.maxBatch} (SANDBOX_MCP_MAX_BATCH)`);
      }
      return {
        exchange: async (req, res) => {
          const [{ StreamableHTTPServerTransport }, { MailSandbox, MailSandboxError }, { createMailSandboxMcpServer }, { MCP_SERVER_VERSION }] = await (mcpModules ??= importMcpModules());
          const requestId = res.getHeader('X-Request-Id');
          const sandbox = new MailSandbox({
            // The Host this request was answered for, so the host check passes its tools' requests as it passed this one.
            baseUrl: `http://${hostOf(req)}${basePath}`,
            apiKey: bearerKeyOf(req),
            fetch: inProcess.fetchFrom(client.ip, typeof requestId === 'string' ? requestId : null),
          });
          const admitCall = () => {
            try {
              return callsRunning.take(principal.workspace.id);
            } catch (error) {
              if (!(error instanceof AppError)) throw error;
              throw new MailSandboxError({ code: error.code, status: error.httpStatus, message: error.message });
            }
          };
          const server = createMailSandboxMcpServer({ sandbox, allowWrites: principal.kind === 'key' && principal.access === 'read_write', version: MCP_SERVER_VERSION, admitCall });
          // No session id: nothing is kept between requests, so any node of a cluster answers any of them.
          const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
          // However the response ends, a tool still waiting is stopped with it (closing aborts the tools' signals).
          res.once('close', () => void server.close());
          await server.connect(transport);
          await transport.handleRequest(req, res, body);
        },
      };
    },
    mcpOpenStream: onlyPost,
    mcpEndSession: onlyPost,
  });
}

/**
 * The request's Host header, which the router has checked is well formed and answered; HTTP/1.0 may leave it out, and
 * a loopback name is answered by every host check.
 */
const hostOf = (req: IncomingMessage): string => req.headers.host || 'localhost';

/** The key the router authenticated this request with (the operation takes a bearer key and nothing else). */
function bearerKeyOf(req: IncomingMessage): string {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  if (!match) throw new AppError('unauthorized', 'the Authorization header must be "Bearer <API key>"');
  return match[1]!;
}
