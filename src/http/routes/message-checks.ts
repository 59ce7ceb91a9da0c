// The route template of every message check: GET /v1/messages/{id}/<name>, one handler per check in the list, each
// running its check on the message and answering what its presenter makes of the finding.
import type { MessageCheckRunner } from '../../services/checks/check-runner.js';
import type { AnyMessageCheck, MessageCheck } from '../../services/checks/message-check.js';
import type { Principal } from '../../services/accounts/principal.js';

/** What a check's handler reads of a request; every check operation's validated request has it. */
interface CheckRequest<Query> {
  principal: Principal;
  params: { id: string };
  query: Query;
  signal: AbortSignal;
}

type CheckHandler<C> = C extends MessageCheck<infer Query, unknown, infer Json> ? (request: CheckRequest<Query>) => Promise<{ data: Json }> : never;

/** A handler per check, under its operation's id: where the handler tables are put together, each is held to its operation. */
export type CheckHandlers<C extends AnyMessageCheck> = { [Op in C['operationId']]: CheckHandler<Extract<C, { operationId: Op }>> };

function handlerOf<Query, Finding, Json>(check: MessageCheck<Query, Finding, Json>, runner: MessageCheckRunner) {
  return async ({ principal, params, query, signal }: CheckRequest<Query>) => ({
    data: check.present(await runner.run(check, principal.workspace.id, params.id, query, signal)),
  });
}

export function messageCheckHandlers<C extends AnyMessageCheck>(checks: readonly C[], runner: MessageCheckRunner): CheckHandlers<C> {
  // Object.fromEntries forgets which handler is whose; each entry is its own check's, as CheckHandlers says.
  return Object.fromEntries(checks.map((check) => [check.operationId, handlerOf(check, runner)])) as CheckHandlers<C>;
}
