// The typed HTTP layer under the client: openapi-fetch over the types generated from openapi.yaml, with the API key,
// the retry of 429 and 503, and one place that turns an error envelope into a MailSandboxError.
import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from '../contract/api-types.js';
import { MailSandboxError } from './errors.js';
import { retryingFetch, type FetchFunction } from './retry.js';

export type Schemas = components['schemas'];
export type ApiClient = Client<paths>;

/** An inbox, by its id or as any object carrying it (an Inbox, an InboxWithCredentials). */
export type InboxRef = string | { id: string };
/** A message, by its id or as any object carrying it (a MessageSummary, a MessageDetail). */
export type MessageRef = string | { id: string };

export const idOf = (ref: InboxRef | MessageRef): string => (typeof ref === 'string' ? ref : ref.id);

export interface ApiOptions {
  baseUrl: string;
  apiKey: string;
  fetch?: FetchFunction;
  maxRetries: number;
}

export function createApiClient(options: ApiOptions): ApiClient {
  // Called through globalThis at each request: a browser's fetch refuses to run detached from window, and a fetch
  // replaced after the client was made (by a test runner, say) is still the one used.
  const baseFetch: FetchFunction = options.fetch ?? ((request) => globalThis.fetch(request));
  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { Authorization: `Bearer ${options.apiKey}` },
    fetch: retryingFetch(baseFetch, options.maxRetries),
  });
}

interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The success envelope's `data`, or the MailSandboxError the answer stands for. */
export async function dataOf<T extends { data: unknown }>(answer: Promise<Answer<T>>): Promise<T['data']> {
  return (await bodyOf(answer)).data;
}

/**
 * A success answer's body as parsed (the JSON envelope, bytes or a stream), or the MailSandboxError the answer
 * stands for.
 */
export async function bodyOf<T>(answer: Promise<Answer<T>>): Promise<T> {
  const { data, error, response } = await answer;
  if (!response.ok || data === undefined) throw MailSandboxError.fromResponse(response, error);
  return data;
}
