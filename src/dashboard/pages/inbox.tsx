// One inbox's messages at /inboxes/:inboxId, newest first: a virtualized list that loads a page as the person scrolls
// to it, live arrivals from the inbox event stream, search (q with the filter chips from, to, subject, since, kept in the
// URL so back and forward restore it), and multi-select with batch read, unread, tag, untag and delete. The parts are
// in components/inbox/; this page holds them together and owns the keyboard shortcuts. At phone width the search and
// the batch controls fold behind a button each, so the first screen shows messages.
import { useEffect, useState } from 'preact/hooks';
import { api, call } from '../api.js';
import { ConfirmDialog } from '../components/dialog.js';
import { useBatchActions } from '../components/inbox/batch-actions.js';
import { BatchToolbar } from '../components/inbox/batch-toolbar.js';
import { InboxFacts, useInboxCounts } from '../components/inbox/inbox-facts.js';
import { MessageList, useActiveMessage, useMessageListView } from '../components/inbox/message-list.js';
import { useMessageSelection } from '../components/inbox/message-selection.js';
import { FoldPanel, FoldToggle, usePhoneFold } from '../components/inbox/phone-folds.js';
import { SearchForm } from '../components/inbox/search-form.js';
import { Alert, Link, Loading, Page, Status } from '../components/ui.js';
import { useShortcuts } from '../keyboard.js';
import { useInboxArrivals } from '../live-inbox.js';
import { FILTER_NAMES, hasFilters, useMessagePages, type MessageFilters } from '../message-pages.js';
import { useNavigate, type PageProps } from '../router.js';
import { invalidate, useServerData } from '../server-state.js';

/** A q expression every message matches, for "select all" with no search: batch needs ids or a query. */
const EVERY_MESSAGE = 'is:read OR is:unread';

function filtersOf(query: URLSearchParams): MessageFilters {
  const filters: MessageFilters = {};
  for (const name of ['q', ...FILTER_NAMES] as const) {
    const value = query.get(name);
    if (value) filters[name] = value;
  }
  return filters;
}

/**
 * The search as one q expression, for batch actions on everything it matches: batch takes q but not the list's filter
 * parameters. Null when a filter value holds a double quote, which a quoted q value cannot contain.
 */
function searchAsQuery(filters: MessageFilters): string | null {
  const terms: string[] = [];
  if (filters.q) terms.push(`(${filters.q})`);
  for (const name of ['from', 'to', 'subject'] as const) {
    const value = filters[name];
    if (value === undefined) continue;
    if (value.includes('"')) return null;
    terms.push(`${name}:"${value}"`);
  }
  if (filters.since) terms.push(`after:${filters.since}`);
  return terms.length > 0 ? terms.join(' ') : EVERY_MESSAGE;
}

export function Inbox(props: PageProps) {
  const inboxId = props.params.inboxId!;
  const navigate = useNavigate();
  const filters = filtersOf(props.route.query);
  const filtered = hasFilters(filters);
  const inboxKey = ['inbox', inboxId];
  const inbox = useServerData(inboxKey, () => call(api.GET('/v1/inboxes/{id}', { params: { path: { id: inboxId } } })));
  const tags = useServerData(['tags'], () => call(api.GET('/v1/tags')));
  const pages = useMessagePages(inboxId, filters);
  const { items } = pages;
  const { counts, arrived } = useInboxCounts(inbox.data);
  const selection = useMessageSelection(items);
  const view = useMessageListView(pages);
  const active = useActiveMessage(view, items.length);
  const batch = useBatchActions({ inboxId, matchingQuery: searchAsQuery(filters), pages });
  const [confirmingDelete, setConfirmingDelete] = useState<{ ids: string[] | null; count: string } | null>(null);
  const searchFold = usePhoneFold('inbox-search');
  const batchFold = usePhoneFold('inbox-batch');

  useEffect(() => {
    selection.clear();
    active.set(-1);
  }, [inboxId, JSON.stringify(filters)]);

  const streamState = useInboxArrivals(inboxId, {
    onMessage: (message) => {
      // A search narrows what belongs in the list; the server decides that: fetch its first page again.
      if (filtered) {
        invalidate(inboxKey);
        return pages.catchUp();
      }
      if (!pages.prepend(message)) return;
      arrived(message.read);
      // Scrolled down, the rows in view stay where they are; the new one waits on top.
      const element = view.scroller.current;
      if (element && element.scrollTop > 0) element.scrollTop += view.rowHeight;
      active.set((index) => (index >= 0 ? index + 1 : index));
    },
    onCatchUp: pages.catchUp,
  });

  const runBatch = async (action: Parameters<typeof batch.run>[0], chosen: string[] | null, tagList?: string[]) => {
    if (!(await batch.run(action, chosen, tagList))) return;
    if (chosen === null) {
      // Listed again from the top: nothing of the old list stays selected or active.
      selection.clear();
      active.set(-1);
    } else if (action === 'delete') {
      selection.clear();
      active.set((index) => Math.min(index, items.length - 1 - chosen.length));
    }
  };

  const askDelete = () => {
    const chosen = selection.target(active.index);
    if (chosen !== null && chosen.length === 0) return;
    if (chosen !== null && chosen.length === 1) return void runBatch('delete', chosen);
    setConfirmingDelete({ ids: chosen, count: chosen === null ? 'every message matching the search' : `${chosen.length.toLocaleString()} messages` });
  };

  const toggleUnread = () => {
    const chosen = selection.target(active.index);
    if (chosen !== null && chosen.length === 0) return;
    const chosenSet = chosen && new Set(chosen);
    const anyUnread = items.some((message) => (chosenSet ? chosenSet.has(message.id) : true) && !message.read);
    void runBatch(anyUnread ? 'read' : 'unread', chosen);
  };

  useShortcuts([
    { key: 'j', description: 'Next message', run: () => active.move(1) },
    { key: 'k', description: 'Previous message', run: () => active.move(-1) },
    { key: 'x', description: 'Select or unselect the message', run: () => active.index >= 0 && selection.toggle(active.index, false) },
    { key: '/', description: 'Search', run: () => searchFold.openAndFocus('message-search') },
    { key: 'u', description: 'Mark the selected or current message read or unread', run: toggleUnread },
    { key: 'Delete', description: 'Delete the selected or current message', run: askDelete },
    {
      key: 'Escape',
      description: 'Clear the selection, or back to the inboxes',
      run: () => (selection.size === 0 ? navigate('/inboxes') : selection.clear()),
    },
  ]);

  const onSearch = (next: MessageFilters) => {
    const query = new URLSearchParams(Object.entries(next) as [string, string][]).toString();
    navigate(`/inboxes/${inboxId}${query ? `?${query}` : ''}`);
  };

  if (inbox.error) {
    return <Page title="Inbox"><Alert error={inbox.error} /><p><Link to="/inboxes">Back to the inboxes</Link></p></Page>;
  }
  return (
    <Page title={inbox.data?.name ?? 'Inbox'}>
      <InboxFacts counts={counts} streamState={streamState} />
      <div class="row fold-toggles">
        <FoldToggle fold={searchFold}>Search{filtered ? ' (applied)' : null}</FoldToggle>
        <FoldToggle fold={batchFold}>
          Actions{selection.matching ? ' (all selected)' : selection.size ? ` (${selection.size.toLocaleString()} selected)` : null}
        </FoldToggle>
      </div>
      <FoldPanel fold={searchFold}><SearchForm filters={filters} onSearch={onSearch} /></FoldPanel>
      <FoldPanel fold={batchFold}>
        <BatchToolbar selection={selection} filtered={filtered} messageCount={counts?.messages ?? items.length} tags={tags.data ?? []}
          onBatch={(action, tagList) => void runBatch(action, selection.target(active.index), tagList)} onDelete={askDelete} />
      </FoldPanel>
      {batch.notice ? <Status>{batch.notice}</Status> : null}
      <Alert error={batch.error ?? pages.error} />
      {pages.loading && items.length === 0 ? <Loading /> : null}
      {!pages.loading && items.length === 0 && !pages.error ? <p>{filtered ? 'No message matches the search.' : 'No messages yet. Send one to this inbox\'s SMTP credentials; it appears here as it arrives.'}</p> : null}
      <MessageList inboxId={inboxId} view={view} pages={pages} active={active} isSelected={selection.isSelected} onToggle={selection.toggle}
        tagColors={new Map((tags.data ?? []).map((tag) => [tag.name, tag.color]))} />
      <p class="hint">Press <kbd>?</kbd> for keyboard shortcuts.</p>
      {confirmingDelete ? (
        <ConfirmDialog title="Delete messages?" confirmLabel="Yes, delete"
          onConfirm={() => { const { ids } = confirmingDelete; setConfirmingDelete(null); void runBatch('delete', ids); }}
          onCancel={() => setConfirmingDelete(null)}>
          <p>Delete {confirmingDelete.count}? This cannot be undone.</p>
        </ConfirmDialog>
      ) : null}
    </Page>
  );
}
