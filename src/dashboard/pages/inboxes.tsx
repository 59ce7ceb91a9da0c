// The workspace's inboxes (GET /v1/inboxes); reading mail in them comes with part 2.
import { api, call } from '../api.js';
import { Alert, Loading, Page, When, useLoad } from '../components/ui.js';

export function Inboxes() {
  const inboxes = useLoad(() => call(api.GET('/v1/inboxes')));
  return (
    <Page title="Inboxes">
      <Alert error={inboxes.error} />
      {inboxes.data === null && !inboxes.error ? <Loading /> : null}
      {inboxes.data?.length === 0 ? <p>No inboxes yet. Create one with <code>POST /v1/inboxes</code> and an API key.</p> : null}
      {inboxes.data && inboxes.data.length > 0 ? (
        <div class="table-wrap">
          <table>
            <caption class="visually-hidden">Inboxes of this workspace</caption>
            <thead><tr><th scope="col">Name</th><th scope="col">SMTP username</th><th scope="col">Messages</th><th scope="col">Created</th></tr></thead>
            <tbody>
              {inboxes.data.map((inbox) => (
                <tr key={inbox.id}>
                  <td>{inbox.name}</td>
                  <td class="mono">{inbox.smtp_username}</td>
                  <td>{inbox.message_count}</td>
                  <td><When at={inbox.created_at} /></td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </Page>
  );
}
