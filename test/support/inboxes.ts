// Creating inboxes over the API under names no other test uses, so tests do not depend on each other's inboxes.
import type { ApiClient } from './api-client.js';
import type { InboxWithCredentialsJson } from './api-json.js';
import { expectOk } from './envelope.js';

let nameCounter = 0;
/** A name no other test uses (inbox, workspace or tag). */
export const uniqueName = (prefix: string) => `${prefix}-${process.pid}-${++nameCounter}`;

/** Creates an inbox (201) and returns it with its SMTP credentials. */
export async function createInbox(api: ApiClient, name: string = uniqueName('inbox')): Promise<InboxWithCredentialsJson> {
  return expectOk<InboxWithCredentialsJson>(await api.post('/v1/inboxes', { name }), 201, `create inbox '${name}'`);
}
