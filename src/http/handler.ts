// The shape of an API handler, typed per operation from openapi.yaml: validated input in, a JSON envelope
// payload, a file or an event stream out, each as that operation's success responses declare.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ClientInfo, Principal, SessionPrincipal } from '../services/accounts/principal.js';
import type { defaultedParameters, exchangeOperations, operations, publicOperations, sessionOperations } from '../contract/api-types.js';
import type { EventStreamReply } from './event-stream.js';

export type OperationId = keyof operations;
export type PublicOperationId = publicOperations;
export type KeyedOperationId = Exclude<OperationId, PublicOperationId>;
/** Dashboard-only operations: the router lets only a session reach them. */
export type SessionOperationId = sessionOperations;

/** A location's parameters as validation hands them over; an operation without any gets an empty object. */
type Located<T> = [NonNullable<T>] extends [never] ? Record<string, never> : NonNullable<T>;

/** Validation fills a left-out parameter from its default, so a handler always sees it. */
type WithDefaults<T, Op, Location extends string> = Op extends keyof defaultedParameters
  ? defaultedParameters[Op] extends Record<Location, infer Names extends keyof T>
    ? Omit<T, Names> & Required<Pick<T, Names>>
    : T
  : T;

type ParametersIn<Op extends OperationId, Location extends 'path' | 'query' | 'header'> =
  WithDefaults<Located<operations[Op]['parameters'][Location]>, Op, Location>;

/** The JSON body of an operation that takes one; undefined only when openapi.yaml makes it optional. */
type RequestBody<Op extends OperationId> = [NonNullable<operations[Op]['requestBody']>] extends [never]
  ? undefined
  : NonNullable<operations[Op]['requestBody']> extends { content: { 'application/json': infer Body } }
    ? Body | (undefined extends operations[Op]['requestBody'] ? undefined : never)
    : undefined;

export interface PublicRequest<Op extends OperationId> {
  params: ParametersIn<Op, 'path'>;
  query: ParametersIn<Op, 'query'>;
  /** The header parameters the operation declares, by their names in openapi.yaml, when present. */
  headers: ParametersIn<Op, 'header'>;
  body: RequestBody<Op>;
  /** Where this server is reached (scheme, host, port and SANDBOX_BASE_PATH), for absolute URLs in responses. */
  baseUrl: string;
  /** The client's address and user agent, for sessions and the sign-in throttle. */
  client: ClientInfo;
  /** Aborted when the client goes away before the response is complete. */
  signal: AbortSignal;
}

export interface ApiRequest<Op extends OperationId> extends PublicRequest<Op> {
  principal: Op extends SessionOperationId ? SessionPrincipal : Principal;
  /**
   * For an operation whose body is a message (`x-body-limit: message`, send): the message composed from the body on a
   * content worker; `body` then holds the body with attachments' contents left out. Null for every other operation.
   */
  message: Buffer | null;
}

/** Sets the session cookie (sign-in) or clears it (sign-out) with a reply; the router owns its name and attributes. */
export type SessionCookie = { set: string; expiresAt: Date } | { clear: true };

/** Sets the device cookie (device-tokens.ts) with a sign-in's reply: its value and when the browser may forget it. */
export interface DeviceCookie {
  set: string;
  expiresAt: Date;
}

/** The envelope's `data` (and `next_cursor` where the response declares one); 200 is the status unless set. */
type JsonReplyFor<Status, Envelope> = Envelope extends { data: infer Data }
  ? (Status extends 200 ? { status?: 200 } : { status: Status })
    & { data: Data }
    & ('next_cursor' extends keyof Envelope ? { nextCursor?: string | null } : { nextCursor?: never })
    & { sessionCookie?: SessionCookie; deviceCookie?: DeviceCookie }
  : never;

export interface FileReply {
  file: Buffer | string;
  contentType: string;
  headers?: Record<string, string>;
}

type SuccessStatus<Op extends OperationId> = Extract<keyof operations[Op]['responses'], 200 | 201 | 202>;

/** What one declared success response allows: its JSON envelope, an event stream, or a file of another type. */
type ReplyFor<Status, Content> =
  | (Content extends { 'application/json': infer Envelope } ? JsonReplyFor<Status, Envelope> : never)
  | ('text/event-stream' extends keyof Content ? EventStreamReply : never)
  | ([Exclude<keyof Content, 'application/json' | 'text/event-stream'>] extends [never] ? never : FileReply);

/**
 * JSON that is not the envelope (the operators' /livez and /readyz, read by probes that know no envelope): the body
 * as declared, under any status declared with such a body, errors included (readiness answers 503 with its report).
 */
export interface BareJsonReply<Status, Body> {
  status: Status;
  json: Body;
}

type BareJsonReplies<Op extends OperationId> = {
  [Status in keyof operations[Op]['responses']]: operations[Op]['responses'][Status] extends { content: { 'application/json': infer Body } }
    ? (Body extends { success: unknown } ? never : BareJsonReply<Status, Body>)
    : never;
}[keyof operations[Op]['responses']];

/**
 * The response written by the handler's own code, for an operation marked `x-exchange: true` (the MCP endpoint, whose
 * SDK transport answers in its own protocol): the router hands it Node's request, whose body it has already read
 * (the handler got it as `body`), and response, and writes nothing itself.
 */
export interface ExchangeReply {
  exchange: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
}

/** Every reply an operation's responses declare, checked against openapi.yaml at compile time. */
export type Reply<Op extends OperationId> = (Op extends exchangeOperations ? ExchangeReply : never) | BareJsonReplies<Op> | {
  [Status in SuccessStatus<Op>]: operations[Op]['responses'][Status] extends { content: infer Content } ? ReplyFor<Status, Content> : never;
}[SuccessStatus<Op>];

/** Whatever any operation may answer, as the router writes it. */
export type AnyReply = { [Op in OperationId]: Reply<Op> }[OperationId];

export type Handler<Op extends KeyedOperationId> = (request: ApiRequest<Op>) => Promise<Reply<Op>>;

/** For operations that openapi.yaml marks `security: []` (signed file links). */
export type PublicHandler<Op extends PublicOperationId> = (request: PublicRequest<Op>) => Promise<Reply<Op>>;

export type HandlerTable<Ops extends KeyedOperationId> = { [Op in Ops]: Handler<Op> };

export type PublicHandlerTable<Ops extends PublicOperationId> = { [Op in Ops]: PublicHandler<Op> };

/** Lets a route module name its operations once, by the keys of its table, and still have each handler typed. */
export const handlers = <Ops extends KeyedOperationId>(table: HandlerTable<Ops>): HandlerTable<Ops> => table;

export const publicHandlers = <Ops extends PublicOperationId>(table: PublicHandlerTable<Ops>): PublicHandlerTable<Ops> => table;
