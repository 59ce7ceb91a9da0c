// The shape of an API handler: validated input in, a JSON envelope payload or a file out.
import type { Principal } from '../services/api-keys.js';

export interface PublicRequest {
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
  /** Scheme, host and port this server is reached at, for absolute URLs in responses. */
  origin: string;
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

export type Handler = (request: ApiRequest) => Promise<JsonReply | FileReply>;

/** For operations that openapi.yaml marks `security: []` (signed file links). */
export type PublicHandler = (request: PublicRequest) => Promise<JsonReply | FileReply>;

export type HandlerTable = Record<string, Handler>;

export type PublicHandlerTable = Record<string, PublicHandler>;
