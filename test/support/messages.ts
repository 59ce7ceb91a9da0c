// Reading captured messages over the API: an inbox's list in one page, one message's summary, one message's detail.
import { strict as assert } from 'node:assert';
import type { ApiClient } from './api-client.js';
import type { MessageDetailJson, MessageSummaryJson } from './api-json.js';
import { expectOk, type Envelope } from './envelope.js';

/** Every message of the inbox, newest first, optionally filtered by a q expression; fails if it needs a second page of 200. */
export async function listMessages(api: ApiClient, inboxId: string, q?: string): Promise<MessageSummaryJson[]> {
  const query = new URLSearchParams({ limit: '200', ...(q === undefined ? {} : { q }) });
  const response = await api.get<Envelope<MessageSummaryJson[]>>(`/v1/inboxes/${inboxId}/messages?${query}`);
  const items = expectOk<MessageSummaryJson[]>(response, 200, `list ${inboxId} q=${q ?? ''}`);
  assert.equal(response.json.next_cursor, undefined, 'more than one page; the helper assumes one');
  return items;
}

/** The summary of one message as its inbox's list shows it; fails if it is not listed. */
export async function summaryOf(api: ApiClient, inboxId: string, id: string): Promise<MessageSummaryJson> {
  const summary = (await listMessages(api, inboxId)).find((message) => message.id === id);
  assert.ok(summary, `message ${id} is not listed in inbox ${inboxId}`);
  return summary;
}

/** GET /v1/messages/{id}. */
export async function detailOf(api: ApiClient, id: string): Promise<MessageDetailJson> {
  return expectOk<MessageDetailJson>(await api.get(`/v1/messages/${encodeURIComponent(id)}`), 200, `detail of ${id}`);
}
