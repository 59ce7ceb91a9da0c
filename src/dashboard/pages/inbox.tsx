// One inbox's messages at /inboxes/:inboxId, newest first: a virtualized list that loads a page as the person scrolls
// to it, live arrivals from the inbox event stream, search (q with the filter chips from, to, subject, since, kept in the
// URL so back and forward restore it; while one is applied, how many of the inbox's messages match and a way to clear
// it), and multi-select with batch read, unread, tag, untag and delete. The parts are in components/inbox/; this page
// holds them together and owns the keyboard shortcuts. The search box is always there; at phone width and beside an
// open message the batch controls fold behind a button, so the first screen shows messages.
//
// The same page shows a message at /inboxes/:inboxId/messages/:messageId: the list stays mounted (its scroll position,
// loaded pages and live arrivals are kept) and the message viewer opens beside it, or, below 1100 px (styles.css), in
// its place, the list hidden until the person goes back to it.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { api, call } from '../api.js';
import { ConfirmDialog } from '../components/dialog.js';
import { useBatchActions } from '../components/inbox/batch-actions.js';
import { BatchToolbar } from '../components/inbox/batch-toolbar.js';
import { InboxFacts } from '../components/inbox/inbox-facts.js';
import { ChaosChip, SettingsLink } from '../components/inbox/inbox-settings-links.js';
import { MessageList, useActiveMessage, useMessageListView } from '../components/inbox/message-list.js';
import { useMessageSelection } from '../components/inbox/message-selection.js';
import { useOpenMessage } from '../components/inbox/open-message.js';
import { FoldPanel, FoldToggle, usePhoneFold } from '../components/inbox/phone-folds.js';
import { SearchCount } from '../components/inbox/search-count.js';
import { SplitHandle, useListWidth } from '../components/inbox/split-handle.js';
import { NewMailPill, NewMailStatus, useUnseenArrivals } from '../components/inbox/new-mail-pill.js';
import { SearchForm } from '../components/inbox/search-form.js';
import { matchedWords, wordsPattern } from '../components/inbox/matched-words.js';
import { Alert, Link, Loading, Page, Status } from '../components/ui.js';
import { MessageViewer, type ListBeside } from './message-viewer.js';
import { useShortcuts } from '../keyboard.js';
import { useInboxArrivals } from '../live-inbox.js';
import { changeMessages, FILTER_NAMES, hasFilters, inboxKey, messageArrived, type MessageFilters } from '../message-cache.js';
import { useMessagePages } from '../message-pages.js';
import { useNavigate, type PageProps } from '../router.js';
import { invalidate, useServerData } from '../server-state.js';
import { messageDetailKey } from '../message-detail.js';
import { setUnreadCount } from '../unread-badge.js';
import { forgetLastInbox, rememberLastInbox } from '../last-inbox.js';
import { useSession } from '../session.js';

/** A q expression every message matches, for "select all" with no search: batch needs ids or a query. */
const EVERY_MESSAGE = 'is:read OR is:unread';

/** The search in the URL's query, for links between the list and its messages: back and forward restore it. */
function searchQuery(filters: MessageFilters): string {
  const query = new URLSearchParams(Object.entries(filters) as [string, string][]).toString();
  return query ? `?${query}` : '';
}

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
  const messageId = props.params.messageId ?? null;
  const navigate = useNavigate();
  const filters = filtersOf(props.route.query);
  const filtered = hasFilters(filters);
  const marked = useMemo(() => wordsPattern(matchedWords(filters)), [JSON.stringify(filters)]);
  const inbox = useServerData(inboxKey(inboxId), () => call(api.GET('/v1/inboxes/{id}', { params: { path: { id: inboxId } } })));
  const tags = useServerData(['tags'], () => call(api.GET('/v1/tags')));
  const pages = useMessagePages(inboxId, filters);
  const { items } = pages;
  const unread = inbox.data?.unread_count ?? 0;
  useEffect(() => {
    setUnreadCount(unread);
    return () => setUnreadCount(0);
  }, [unread]);
  const selection = useMessageSelection(items);
  const view = useMessageListView(pages);
  const active = useActiveMessage(view, items.length);
  const batch = useBatchActions({ inboxId, matchingQuery: searchAsQuery(filters), pages });
  const [confirmingDelete, setConfirmingDelete] = useState<{ ids: string[] | null; count: string } | null>(null);
  const batchFold = usePhoneFold('inbox-batch');
  const messagePane = useRef<HTMLElement>(null);
  const listPane = useRef<HTMLElement>(null);
  const [listWidth, setListWidth] = useListWidth();
  const unseen = useUnseenArrivals(view.scroller, listPane);

  const inboxPath = `/inboxes/${encodeURIComponent(inboxId)}`;
  const listPath = `${inboxPath}${searchQuery(filters)}`;
  const messagePath = (id: string) => `${inboxPath}/messages/${encodeURIComponent(id)}${searchQuery(filters)}`;
  // Opening a message from the bare list adds a history entry, so Back returns to the list (on a narrow screen, the way
  // back to it). With a message open, the next one replaces it: reading twenty messages in a row leaves one entry, and
  // Back still returns to the list in one step instead of walking back through every message read.
  const openMessage = (id: string) => navigate(messagePath(id), { replace: messageId !== null });

  useEffect(() => {
    selection.clear();
    active.set(-1);
  }, [inboxId, JSON.stringify(filters)]);

  const openIndex = useOpenMessage({ messageId, pages, view, active, messagePane });
  const listBeside: ListBeside = {
    path: listPath,
    newMail: unseen.count,
    // Replacing the deleted message's entry: Back from the list must not lead to a message that is gone.
    deleted: (id) => {
      navigate(listPath, { replace: true });
      changeMessages(inboxId, [id], 'delete');
    },
  };

  const streamState = useInboxArrivals(inboxId, {
    onMessage: (message) => {
      // A search narrows what belongs in the list; the server decides that: fetch its first page again.
      if (filtered) {
        invalidate(inboxKey(inboxId));
        return pages.catchUp();
      }
      if (!messageArrived(inboxId, message)) return;
      unseen.arrived();
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
    if (messageId === null || (chosen !== null && !chosen.includes(messageId))) return;
    // The open message went with the others: the list alone stays. Changed with everything matching, the viewer reads
    // it again (chosen by id, the change was written into its entry).
    if (action === 'delete') navigate(listPath, { replace: true });
    else if (chosen === null) invalidate(messageDetailKey(messageId));
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

  /** Moves the cursor; with a message open, from its row, and the open message with it. */
  const step = (delta: number) => {
    const next = items[active.move(delta, openIndex >= 0 ? openIndex : active.index)];
    if (messageId !== null && next && next.id !== messageId) openMessage(next.id);
  };

  useShortcuts([
    { key: 'j', description: 'Next message (with one open, open the next)', run: () => step(1) },
    { key: 'k', description: 'Previous message (with one open, open the previous)', run: () => step(-1) },
    { key: 'ArrowDown', description: 'Next message, as j', run: () => step(1) },
    { key: 'ArrowUp', description: 'Previous message, as k', run: () => step(-1) },
    { key: 'x', description: 'Select or unselect the message', run: () => active.index >= 0 && selection.toggle(active.index, false) },
    { key: '/', description: 'Search', run: () => document.getElementById('message-search')?.focus() },
    { key: 'u', description: 'Mark the selected or current message read or unread', run: toggleUnread },
    { key: 'Delete', description: 'Delete the selected or current message', run: askDelete },
    {
      key: 'Escape',
      // Never out of the inbox: an Esc too many must not take the person away from their mail.
      description: messageId === null ? 'Clear the selection' : 'Clear the selection, or close the message',
      run: () => {
        if (selection.size !== 0) selection.clear();
        else if (messageId !== null) navigate(listPath);
      },
    },
  ]);

  const onSearch = (next: MessageFilters) => {
    // The open message stays open: the person searches while reading.
    navigate(`${inboxPath}${messageId === null ? '' : `/messages/${encodeURIComponent(messageId)}`}${searchQuery(next)}`);
  };

  const workspaceId = useSession().me?.workspace.id;
  useEffect(() => {
    if (workspaceId === undefined) return;
    if (inbox.data) rememberLastInbox(workspaceId, inboxId);
    else if (inbox.error) forgetLastInbox(workspaceId, inboxId);
  }, [workspaceId, inboxId, inbox.data !== null, inbox.error !== null]);

  if (inbox.error) {
    return <Page title="Inbox"><Alert error={inbox.error} /><p><Link to="/inboxes">Back to the inboxes</Link></p></Page>;
  }
  const name = inbox.data?.name ?? 'Inbox';
  return (
    // The chosen width is a CSSOM custom property, which the CSP's style-src allows; markup carries no style.
    <div class={messageId === null ? 'mail-split' : 'mail-split message-open'} style={listWidth === null ? undefined : { '--list-width': `${listWidth}px` } as Record<string, string>}>
      <section class="list-pane" aria-label={name} ref={listPane}>
        {/* The open message's subject is the page's heading; the list's is then one level down. */}
        {messageId === null ? <Page title={name}>{null}</Page> : <h2 class="list-title">{name}</h2>}
        <InboxFacts inbox={inbox.data} streamState={streamState}>
          {inbox.data ? <>{' '}<SettingsLink inbox={inbox.data} /> <ChaosChip inbox={inbox.data} /></> : null}
        </InboxFacts>
        {/* The search and, where the batch controls fold, their toggle: one line. */}
        <div class="list-tools">
          <SearchForm filters={filters} onSearch={onSearch} />
          <div class="fold-toggles">
            <FoldToggle fold={batchFold}>
              Actions{selection.matching ? ' (all selected)' : selection.size ? ` (${selection.size.toLocaleString()} selected)` : null}
            </FoldToggle>
          </div>
        </div>
        {filtered ? <SearchCount inboxId={inboxId} filters={filters} total={inbox.data?.message_count ?? null} onClear={() => onSearch({})} /> : null}
        <FoldPanel fold={batchFold}>
          <BatchToolbar selection={selection} filtered={filtered} messageCount={inbox.data?.message_count ?? items.length} tags={tags.data ?? []}
            onBatch={(action, tagList) => void runBatch(action, selection.target(active.index), tagList)} onDelete={askDelete} />
        </FoldPanel>
        {batch.notice ? <Status>{batch.notice}</Status> : null}
        <Alert error={batch.error ?? pages.error} />
        {pages.loading && items.length === 0 ? <Loading /> : null}
        {!pages.loading && items.length === 0 && !pages.error ? <p>{filtered ? 'No message matches the search.' : 'No messages yet. Send one to this inbox\'s SMTP credentials; it appears here as it arrives.'}</p> : null}
        <NewMailPill unseen={unseen} onShow={() => view.scroller.current?.scrollTo({ top: 0 })} />
        <MessageList messagePath={messagePath} openId={messageId} onOpen={openMessage} view={view} pages={pages} active={active}
          isSelected={selection.isSelected} onToggle={selection.toggle} tagColors={new Map((tags.data ?? []).map((tag) => [tag.name, tag.color]))}
          marked={marked} />
        <p class="hint">Press <kbd>?</kbd> for keyboard shortcuts.</p>
      </section>
      <NewMailStatus unseen={unseen} />
      <SplitHandle width={() => listPane.current?.offsetWidth ?? 0} left={() => listPane.current?.getBoundingClientRect().left ?? 0} onResize={setListWidth} />
      <section class="message-pane" aria-label="Open message" ref={messagePane}>
        {messageId === null
          ? <p class="pane-empty muted">Select a message to read it here.</p>
          : <MessageViewer key={messageId} route={props.route} params={{ inboxId, messageId }} list={listBeside} />}
      </section>
      {/* Outside the list's pane, which is hidden on a narrow screen while a message is open (Delete works there too). */}
      {confirmingDelete ? (
        <ConfirmDialog title="Delete messages?" confirmLabel="Yes, delete"
          onConfirm={() => { const { ids } = confirmingDelete; setConfirmingDelete(null); void runBatch('delete', ids); }}
          onCancel={() => setConfirmingDelete(null)}>
          <p>Delete {confirmingDelete.count}? This cannot be undone.</p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}
