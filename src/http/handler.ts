// The shape of an API handler: validated input in, a JSON envelope payload, a file or an event stream out.
import type { Principal } from '../services/api-keys.js';
import type { EventStreamReply } from './event-stream.js';

export interface PublicRequest {
  params: Record<string, string>;
  query: Record<string, unknown>;
  /** The header parameters the operation declares, by their names in openapi.yaml, when present. */
  headers: Record<string, string>;
  body: unknown;
  /** Scheme, host and port this server is reached at, for absolute URLs in responses. */
  origin: string;
  /** Aborted when the client goes away before the response is complete. */
  signal: AbortSignal;
}

export interface ApiRequest extends PublicRequest {
  principal: Principal;
}

export interface JsonReply {
  status?: number;
  data: unknown;
  nextCursor?: string | null;
}

export interface FileReply {
  status?: number;
  file: Buffer | string;
  contentType: string;
  headers?: Record<string, string>;
}

export type Handler = (request: ApiRequest) => Promise<JsonReply | FileReply | EventStreamReply>;

/** For operations that openapi.yaml marks `security: []` (signed file links). */
export type PublicHandler = (request: PublicRequest) => Promise<JsonReply | FileReply>;

export type HandlerTable = Record<string, Handler>;

export type PublicHandlerTable = Record<string, PublicHandler>;
