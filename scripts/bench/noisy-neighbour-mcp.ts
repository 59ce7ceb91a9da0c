// Tenant A's MCP attack for the noisy-neighbour bench (issue 35): JSON-RPC batches of tool calls to /mcp that each hold a wait, several batches at once, counting what the server answered the batches and each call in them.
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { httpAnswer, noAnswer } from './answers.js';
import { A_TIMEOUT_MS, createInbox, sleep, untilDeadline, type Attack, type AttackOptions } from './noisy-neighbour-attacks.js';

/** The loopback address A's /mcp requests come from, so that what fills 127.0.0.1 (B's address) is the server's own doing. */
export const MCP_ADDRESS = '127.0.0.95';

interface ToolCallAnswer {
  error?: { code: number; message: string };
  result?: { isError?: boolean; content?: { type: string; text?: string }[] };
}

/** One POST from `from` on a connection of its own; the status and body, or what went wrong. */
function postFrom(url: string, from: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const sent = http.request(url, { method: 'POST', agent: false, localAddress: from, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, signal: AbortSignal.timeout(timeoutMs) }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.once('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      response.once('error', reject);
    });
    sent.once('error', reject);
    sent.end(body);
  });
}

/** A call's answer by what it was: a result, a tool error by the API's code (else its text's start), or a JSON-RPC error by its code. */
function callAnswer(answer: ToolCallAnswer): string {
  if (answer.error) return `MCP JSON-RPC error ${answer.error.code}`;
  if (!answer.result?.isError) return 'MCP tool result';
  const text = answer.result.content?.[0]?.text ?? '';
  try {
    const code = (JSON.parse(text) as { error?: { code?: string } }).error?.code;
    if (code) return `MCP tool error ${code}`;
  } catch {
    // Not the API's error envelope: the SDK's own text, named by its start.
  }
  return `MCP tool error: ${text.slice(0, 60)}`;
}

/**
 * /mcp batches of CALLS `wait_for_message` calls with a read key, for a message that never comes, BATCHES at a time
 * until the window ends; each wait is sized to end with the window.
 */
export function mcpBatch(options: AttackOptions): Attack {
  const CALLS = 100;
  const BATCHES = 5;
  /** The tool's longest wait. */
  const LONGEST_WAIT_SECONDS = 120;
  /** A batch answered before its waits could end was refused or cut short: the lane pauses this long, as a client's retry would. */
  const RETRY_AFTER_MS = 1000;
  let readKey: string;
  let inboxId: string;
  return {
    async prepare(attacker) {
      readKey = attacker.createReadKey();
      inboxId = (await createInbox(attacker, 'mcp-batch')).id;
    },
    async run(attacker, answers) {
      const deadline = performance.now() + options.windowMs;
      const headers = { authorization: `Bearer ${readKey}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
      let batches = 0;
      let calls = 0;
      await Promise.all(
        Array.from({ length: BATCHES }, async (_, lane) => {
          while (untilDeadline(deadline)) {
            const waitSeconds = Math.min(LONGEST_WAIT_SECONDS, Math.max(1, Math.ceil((deadline - performance.now()) / 1000)));
            const batch = Array.from({ length: CALLS }, (_unused, index) => ({
              jsonrpc: '2.0',
              id: `${lane}-${batches}-${index}`,
              method: 'tools/call',
              params: { name: 'wait_for_message', arguments: { inbox: inboxId, q: 'subject:"never sent"', timeout_seconds: waitSeconds, lookback_seconds: 0 } },
            }));
            batches++;
            calls += CALLS;
            const started = performance.now();
            try {
              const answer = await postFrom(`${attacker.httpUrl}/mcp`, MCP_ADDRESS, headers, JSON.stringify(batch), waitSeconds * 1000 + A_TIMEOUT_MS);
              answers.add(httpAnswer(answer.status, answer.body.slice(0, 2000)));
              if (answer.status === 200) {
                const parsed = JSON.parse(answer.body) as ToolCallAnswer | ToolCallAnswer[];
                for (const call of Array.isArray(parsed) ? parsed : [parsed]) answers.add(callAnswer(call));
              }
            } catch (error) {
              answers.add(noAnswer(error));
            }
            if (performance.now() - started < waitSeconds * 1000) await sleep(Math.min(RETRY_AFTER_MS, deadline - performance.now()));
          }
        }),
      );
      return { calls_per_batch: CALLS, batches_at_once: BATCHES, batches, calls, from: MCP_ADDRESS };
    },
  };
}
