// The audit log (admins and owners): who did what and when, newest first, a page at a time.
import { useState } from 'preact/hooks';
import { api, envelope } from '../api.js';
import { DataTable, Resource } from '../components/resource.js';
import { Page, When } from '../components/ui.js';
import { useServerData } from '../server-state.js';
import { RoleRequired, isRoleRequired } from '../components/role-required.js';

const PAGE_SIZE = 50;

export function AuditLog() {
  // The cursors of the pages before this one, to go back; undefined: the first page.
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors[cursors.length - 1];
  const page = useServerData(['audit-log', cursor], () => envelope(api.GET('/v1/audit-log', { params: { query: cursor ? { limit: PAGE_SIZE, cursor } : { limit: PAGE_SIZE } } })));
  if (isRoleRequired(page.error)) {
    return <Page title="Audit log"><RoleRequired what="read the audit log" error={page.error} /></Page>;
  }
  const next = page.data?.next_cursor;
  return (
    <Page title="Audit log">
      <Resource resource={{ ...page, data: page.data?.data ?? null }} empty="Nothing recorded yet.">
        {(entries) => (
          <DataTable caption={`Audit log, page ${cursors.length}`} columns={['When', 'Who', 'What', 'Target', 'Details']}>
            {entries.map((entry) => (
              <tr key={entry.id}>
                <td><When at={entry.at} /></td>
                <td>{entry.actor}</td>
                <td class="mono">{entry.action}</td>
                <td>{entry.target ?? ''}</td>
                <td>{Object.entries(entry.details ?? {}).map(([name, value]) => `${name}: ${value ?? '—'}`).join(', ')}</td>
              </tr>
            ))}
          </DataTable>
        )}
      </Resource>
      <div class="row pager">
        <button type="button" disabled={cursors.length === 1} onClick={() => setCursors(cursors.slice(0, -1))}>Newer entries</button>
        <span class="muted">Page {cursors.length}</span>
        <button type="button" disabled={!next} onClick={() => next && setCursors([...cursors, next])}>Older entries</button>
      </div>
    </Page>
  );
}
