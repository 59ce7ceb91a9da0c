// The audit log (admins and owners): who did what and when, newest first, a page at a time.
import { useState } from 'preact/hooks';
import { api, envelope } from '../api.js';
import { Alert, Loading, Page, When, useLoad } from '../components/ui.js';
import { RoleRequired, isRoleRequired } from './role-required.js';

const PAGE_SIZE = 50;

export function AuditLog() {
  // The cursors of the pages before this one, to go back; undefined: the first page.
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors[cursors.length - 1];
  const page = useLoad(() => envelope(api.GET('/v1/audit-log', { params: { query: cursor ? { limit: PAGE_SIZE, cursor } : { limit: PAGE_SIZE } } })), [cursor]);
  if (isRoleRequired(page.error)) {
    return <Page title="Audit log"><RoleRequired what="read the audit log" error={page.error} /></Page>;
  }
  const entries = page.data?.data;
  const next = page.data?.next_cursor;
  return (
    <Page title="Audit log">
      <Alert error={page.error} />
      {!page.data && !page.error ? <Loading /> : null}
      {entries?.length === 0 ? <p>Nothing recorded yet.</p> : null}
      {entries && entries.length > 0 ? (
        <div class="table-wrap">
          <table>
            <caption class="visually-hidden">Audit log, page {cursors.length}</caption>
            <thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">What</th><th scope="col">Target</th><th scope="col">Details</th></tr></thead>
            <tbody>
              {entries.map((entry) => (
                <tr key={entry.id}>
                  <td><When at={entry.at} /></td>
                  <td>{entry.actor}</td>
                  <td class="mono">{entry.action}</td>
                  <td>{entry.target ?? ''}</td>
                  <td>{Object.entries(entry.details ?? {}).map(([name, value]) => `${name}: ${value ?? '—'}`).join(', ')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <div class="row pager">
        <button type="button" disabled={cursors.length === 1} onClick={() => setCursors(cursors.slice(0, -1))}>Newer entries</button>
        <span class="muted">Page {cursors.length}</span>
        <button type="button" disabled={!next} onClick={() => next && setCursors([...cursors, next])}>Older entries</button>
      </div>
    </Page>
  );
}
