// The shape of an API handler: validated input in, a JSON envelope payload or a file out.
import type { Principal } from '../services/api-keys.js';

export interface ApiRequest {
  principal: Principal;
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
}

export interface JsonReply {
  status?: number;
  data: unknown;
  nextCursor?: string | null;
}

export interface FileReply {
  status?: number;
  file: Buffer;
  contentType: string;
  headers?: Record<string, string>;
}

export type Handler = (request: ApiRequest) => Promise<JsonReply | FileReply>;

export type HandlerTable = Record<string, Handler>;
