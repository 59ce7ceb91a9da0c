// The webhooks that see this inbox's mail (those scoped to it and the workspace-wide ones): create one for the inbox
// (its secret shown once), send a test, delete, and each one's deliveries with attempts and errors, retried by hand
// when finished. Admins change webhooks; members see them read-only (the API answers 403 role_required).
import { useState } from 'preact/hooks';
import { api, call, type Schemas } from '../../api.js';
import { ConfirmDialog } from '../dialog.js';
import { DataTable, Resource } from '../resource.js';
import { OneTimeSecret } from '../copy.js';
import { Alert, Status, When } from '../ui.js';
import { invalidate, useServerData } from '../../server-state.js';
import { atLeast, useRole } from '../../session.js';
import { useAction } from '../../use-action.js';

/** Deliveries change on the server's schedule, not through this page: it looks again this often while open. */
const DELIVERIES_REFRESH_MS = 3000;

function CreateWebhook(props: { inboxId: string }) {
  const [url, setUrl] = useState('');
  const [created, setCreated] = useState<Schemas['WebhookWithSecret'] | null>(null);
  const { error, submit } = useAction();
  const create = submit(async () => {
    setCreated(await call(api.POST('/v1/webhooks', { body: { url: url.trim(), inbox_id: props.inboxId } })));
    setUrl('');
    invalidate(['webhooks']);
  });
  return (
    <div class="stack">
      <form class="inline-form" onSubmit={create} aria-labelledby="new-webhook-heading">
        <h3 id="new-webhook-heading" class="visually-hidden">New webhook</h3>
        <div class="field">
          <label for="webhook-url">Webhook URL</label>
          <input id="webhook-url" type="url" required maxLength={2000} value={url} placeholder="https://ci.example.com/hooks/mail" onInput={(event) => setUrl(event.currentTarget.value)} />
        </div>
        <button type="submit">Create webhook</button>
      </form>
      <Alert error={error} />
      {created ? (
        <OneTimeSecret label="Webhook secret" value={created.secret} note={`Copy it now: it is shown only once. Deliveries to ${created.url} are signed with it (X-Sandbox-Signature).`} />
      ) : null}
    </div>
  );
}

function Deliveries(props: { webhook: Schemas['Webhook']; canChange: boolean }) {
  const deliveriesKey = ['webhook-deliveries', props.webhook.id];
  const deliveries = useServerData(deliveriesKey, () => call(api.GET('/v1/webhooks/{id}/deliveries', { params: { path: { id: props.webhook.id } } })), { refreshMs: DELIVERIES_REFRESH_MS });
  const { error, run } = useAction();
  const retry = (id: number) => run(async () => {
    await call(api.POST('/v1/webhook-deliveries/{id}/retry', { params: { path: { id } } }));
    invalidate(deliveriesKey);
  });
  return (
    <div class="stack">
      <Alert error={error} />
      <Resource resource={deliveries}>
        {(list) => list.length === 0 ? <p class="muted">No deliveries yet.</p> : (
          <DataTable caption={`Deliveries to ${props.webhook.url} (newest first)`} visibleCaption
            columns={['Delivery', 'Event', 'Status', 'Attempts', 'Last answer', 'Created', 'Next attempt', ...(props.canChange ? ['Actions'] : [])]}>
            {list.map((delivery) => (
              <tr key={delivery.id}>
                <td>{delivery.id}</td>
                <td>{delivery.event}{delivery.message_id ? <span class="muted mono"> {delivery.message_id}</span> : null}</td>
                <td>{delivery.status}</td>
                <td>{delivery.attempts}</td>
                <td class="wrap">{delivery.last_status ?? ''}{delivery.last_error ? <span class="bad"> {delivery.last_error}</span> : null}</td>
                <td><When at={delivery.created_at} /></td>
                <td><When at={delivery.next_attempt_at} never="—" /></td>
                {props.canChange ? (
                  <td>{delivery.status === 'pending' ? null : <button type="button" class="quiet" aria-label={`Retry delivery ${delivery.id}`} onClick={() => void retry(delivery.id)}>Retry</button>}</td>
                ) : null}
              </tr>
            ))}
          </DataTable>
        )}
      </Resource>
    </div>
  );
}

function WebhookCard(props: { webhook: Schemas['Webhook']; canChange: boolean }) {
  const { webhook } = props;
  const [notice, setNotice] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const { error, run } = useAction();
  const path = { id: webhook.id };
  const test = () => run(async () => {
    const queued = await call(api.POST('/v1/webhooks/{id}/test', { params: { path } }));
    setNotice(`Test delivery ${queued.delivery_id} queued.`);
  });
  const remove = () => run(async () => {
    setConfirming(false);
    await call(api.DELETE('/v1/webhooks/{id}', { params: { path } }));
    invalidate(['webhooks']);
  });
  return (
    <li class="card stack">
      <h3 class="mono wrap">{webhook.url}</h3>
      <p class="muted">{webhook.inbox_id === null ? 'Every inbox of the workspace' : 'This inbox'} · created <When at={webhook.created_at} /></p>
      {props.canChange ? (
        <div class="row">
          <button type="button" class="quiet" aria-label={`Send test to ${webhook.url}`} onClick={() => void test()}>Send test</button>
          <button type="button" class="danger" aria-label={`Delete the webhook ${webhook.url}`} onClick={() => setConfirming(true)}>Delete</button>
        </div>
      ) : null}
      {confirming ? (
        <ConfirmDialog title="Delete this webhook?" confirmLabel="Yes, delete it" onConfirm={() => void remove()} onCancel={() => setConfirming(false)}>
          <p>The webhook to {webhook.url} and its deliveries are deleted.</p>
        </ConfirmDialog>
      ) : null}
      {notice ? <Status>{notice}</Status> : null}
      <Alert error={error} />
      <Deliveries webhook={webhook} canChange={props.canChange} />
    </li>
  );
}

export function Webhooks(props: { inboxId: string }) {
  const canChange = atLeast(useRole(), 'admin');
  const webhooks = useServerData(['webhooks'], () => call(api.GET('/v1/webhooks')));
  return (
    <section aria-labelledby="webhooks-heading" class="card stack">
      <h2 id="webhooks-heading">Webhooks</h2>
      <p class="muted">A signed POST for every message this inbox captures.</p>
      {canChange ? <CreateWebhook inboxId={props.inboxId} /> : <p class="hint">Only admins and owners create, test and delete webhooks; you can see them and their deliveries.</p>}
      <Resource resource={{ ...webhooks, data: webhooks.data?.filter((webhook) => webhook.inbox_id === props.inboxId || webhook.inbox_id === null) ?? null }} empty="No webhook sees this inbox.">
        {(mine) => (
          <ul class="plain stack" aria-label="Webhooks">
            {mine.map((webhook) => <WebhookCard key={webhook.id} webhook={webhook} canChange={canChange} />)}
          </ul>
        )}
      </Resource>
    </section>
  );
}
