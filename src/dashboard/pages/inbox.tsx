// One inbox's messages at /inboxes/:inboxId, newest first: a virtualized list that loads a page as the person scrolls
// to it, live arrivals from the inbox event stream, search (q with the filter chips from, to, subject, since, kept in the
// URL so back and forward restore it), and multi-select with batch read, unread, tag, untag and delete.
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { api, call, type Schemas } from '../api.js';
import { ConfirmDialog } from '../components/dialog.js';
import { Alert, Link, Loading, Page, Status, When, useLoad } from '../components/ui.js';
import { useVirtualList } from '../components/virtual-list.js';
import { useShortcuts } from '../keyboard.js';
import { useAction } from '../use-action.js';
import { useInboxArrivals, type StreamState } from '../live-inbox.js';
import { FILTER_NAMES, PAGE_SIZE, hasFilters, useMessagePages, type MessageFilters, type MessageSummary } from '../message-pages.js';
import { useNavigate, type PageProps } from '../router.js';

type FilterName = (typeof FILTER_NAMES)[number];
type BatchAction = Schemas['BatchRequest']['action'];

/** A row's height: 3.5rem, as .message-row in styles.css (rows are fixed in height, so the list never measures). */
const ROW_HEIGHT_REM = 3.5;
/** The batch endpoint takes at most this many ids per request. */
const BATCH_IDS = 1000;
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

/** datetime-local's value (local time, no zone) for an ISO instant, and back. */
function toLocalInput(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

function fromLocalInput(value: string): string | undefined {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

function SearchForm(props: { filters: MessageFilters; onSearch: (filters: MessageFilters) => void }) {
  const [q, setQ] = useState(props.filters.q ?? '');
  // The chips shown, with their draft values; a chip with an empty value is dropped when the search is applied.
  const [chips, setChips] = useState<Partial<Record<FilterName, string>>>(() => Object.fromEntries(
    FILTER_NAMES.filter((name) => props.filters[name] !== undefined).map((name) => [name, name === 'since' ? toLocalInput(props.filters.since!) : props.filters[name]!]),
  ));
  const filterKey = JSON.stringify(props.filters);
  useEffect(() => {
    // Back and forward change the URL's search: show it.
    setQ(props.filters.q ?? '');
    setChips(Object.fromEntries(FILTER_NAMES.filter((name) => props.filters[name] !== undefined)
      .map((name) => [name, name === 'since' ? toLocalInput(props.filters.since!) : props.filters[name]!])));
  }, [filterKey]);

  const submit = (event: Event) => {
    event.preventDefault();
    const next: MessageFilters = {};
    if (q.trim()) next.q = q.trim();
    for (const name of FILTER_NAMES) {
      const value = chips[name]?.trim();
      if (!value) continue;
      if (name === 'since') {
        const since = fromLocalInput(value);
        if (since) next.since = since;
      } else {
        next[name] = value;
      }
    }
    props.onSearch(next);
  };
  const setChip = (name: FilterName, value: string | undefined) => setChips((current) => {
    const next = { ...current };
    if (value === undefined) delete next[name];
    else next[name] = value;
    return next;
  });

  return (
    <form role="search" class="search stack" onSubmit={submit}>
      <div class="row search-row">
        <div class="field grow">
          <label for="message-search">Search</label>
          <input id="message-search" type="search" value={q} onInput={(event) => setQ(event.currentTarget.value)}
            placeholder={'from:alice subject:"password reset" -is:read'} aria-describedby="message-search-hint" />
        </div>
        <button type="submit">Apply search</button>
      </div>
      <p class="hint" id="message-search-hint">The q language: words, "phrases", from:, to:, subject:, tag:, is:unread, has:attachment, after:2026-11-20, OR, -term.</p>
      <div class="chips" role="group" aria-label="Filters">
        {FILTER_NAMES.map((name) => chips[name] === undefined ? (
          <button key={name} type="button" class="chip" aria-label={`Add a ${name} filter`} onClick={() => setChip(name, '')}>+ {name}</button>
        ) : (
          <span key={name} class="chip chip-field">
            <label for={`filter-${name}`}>{name}<span class="visually-hidden"> filter</span></label>
            {name === 'since'
              ? <input id="filter-since" type="datetime-local" value={chips.since} onInput={(event) => setChip(name, event.currentTarget.value)} />
              : <input id={`filter-${name}`} type="text" value={chips[name]} onInput={(event) => setChip(name, event.currentTarget.value)} />}
            <button type="button" class="quiet chip-remove" aria-label={`Remove the ${name} filter`} onClick={() => setChip(name, undefined)}>×</button>
          </span>
        ))}
      </div>
    </form>
  );
}

function TagChip(props: { name: string; color: string | undefined }) {
  return (
    <span class="tag">
      {/* The colour is a swatch beside the name, so the name keeps the theme's text contrast whatever the colour. */}
      <span class="tag-swatch" aria-hidden="true" style={props.color ? { backgroundColor: props.color } : undefined} />
      {props.name}
    </span>
  );
}

type Selection = { mode: 'ids'; ids: Set<string> } | { mode: 'matching' };

function LiveState(props: { state: StreamState }) {
  const text = props.state === 'live' ? 'Live: new mail appears as it arrives.' : props.state === 'connecting' ? 'Connecting to live updates…' : 'Live updates interrupted; reconnecting…';
  return <span class={`live live-${props.state}`}>{text}</span>;
}

export function Inbox(props: PageProps) {
  const inboxId = props.params.inboxId!;
  const navigate = useNavigate();
  const filters = filtersOf(props.route.query);
  const filtered = hasFilters(filters);
  const inbox = useLoad(() => call(api.GET('/v1/inboxes/{id}', { params: { path: { id: inboxId } } })), [inboxId]);
  const tags = useLoad(() => call(api.GET('/v1/tags')));
  const pages = useMessagePages(inboxId, filters);
  const [counts, setCounts] = useState<{ messages: number; unread: number } | null>(null);
  const [selection, setSelection] = useState<Selection>({ mode: 'ids', ids: new Set() });
  const [active, setActive] = useState(-1);
  const [tagName, setTagName] = useState('');
  const [confirmingDelete, setConfirmingDelete] = useState<{ ids: string[] | null; count: string } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const { error, run } = useAction();
  const scroller = useRef<HTMLDivElement>(null);
  const anchorId = useRef<string | null>(null);
  const focusActive = useRef(false);
  // Read once: getComputedStyle on every render would recompute styles while the list scrolls.
  const [rowHeight] = useState(() => ROW_HEIGHT_REM * parseFloat(getComputedStyle(document.documentElement).fontSize));

  useEffect(() => {
    if (inbox.data) setCounts({ messages: inbox.data.message_count, unread: inbox.data.unread_count });
  }, [inbox.data]);
  useEffect(() => {
    setSelection({ mode: 'ids', ids: new Set() });
    setActive(-1);
  }, [inboxId, JSON.stringify(filters)]);

  const streamState = useInboxArrivals(inboxId, {
    onMessage: (message) => {
      // A search narrows what belongs in the list; the server decides that: fetch its first page again.
      if (filtered) {
        inbox.reload();
        return pages.catchUp();
      }
      if (!pages.prepend(message)) return;
      setCounts((current) => current && { messages: current.messages + 1, unread: current.unread + (message.read ? 0 : 1) });
      // Scrolled down, the rows in view stay where they are; the new one waits on top.
      const element = scroller.current;
      if (element && element.scrollTop > 0) element.scrollTop += rowHeight;
      setActive((index) => (index >= 0 ? index + 1 : index));
    },
    onCatchUp: pages.catchUp,
  });

  const { items } = pages;
  const count = items.length + (pages.nextCursor !== null ? 1 : 0);
  const virtualizer = useVirtualList({
    count,
    getScrollElement: () => scroller.current,
    rowHeight,
    getItemKey: (index) => items[index]?.id ?? 'more',
  });
  const rows = virtualizer.getVirtualItems();

  useEffect(() => {
    const last = rows.at(-1);
    if (last && pages.nextCursor !== null && !pages.loading && !pages.error && last.index >= items.length - PAGE_SIZE / 4) pages.loadMore();
  });

  // A layout effect: the focus moves in the same frame as the row it goes to is drawn.
  useLayoutEffect(() => {
    if (!focusActive.current || active < 0) return;
    const link = scroller.current?.querySelector<HTMLElement>(`[data-index="${active}"] .message-link`);
    if (link) {
      link.focus({ preventScroll: true });
      focusActive.current = false;
    }
  });

  const isSelected = (message: MessageSummary) => selection.mode === 'matching' || selection.ids.has(message.id);
  const selectedIds = () => (selection.mode === 'ids' ? [...selection.ids] : []);
  const selectionSize = selection.mode === 'matching' ? null : selection.ids.size;
  const nothingSelected = selectionSize === 0;

  const toggle = (index: number, range: boolean) => {
    const message = items[index];
    if (!message) return;
    const ids = new Set(selection.mode === 'matching' ? items.map((item) => item.id) : selection.ids);
    const anchor = range && anchorId.current ? items.findIndex((item) => item.id === anchorId.current) : -1;
    if (anchor >= 0) {
      const select = !(selection.mode === 'ids' && selection.ids.has(message.id));
      for (let i = Math.min(anchor, index); i <= Math.max(anchor, index); i++) {
        if (select) ids.add(items[i]!.id);
        else ids.delete(items[i]!.id);
      }
    } else if (selection.mode === 'ids' && ids.has(message.id)) {
      ids.delete(message.id);
    } else if (selection.mode === 'matching') {
      // Out of "all matching": what stays selected is what is loaded, without this one.
      ids.delete(message.id);
    } else {
      ids.add(message.id);
    }
    anchorId.current = message.id;
    setSelection({ mode: 'ids', ids });
  };

  const runBatch = (action: BatchAction, chosen: string[] | null, tagList?: string[]) => {
    setNotice(null);
    return run(async () => {
      let affected = 0;
      if (chosen === null) {
        const query = searchAsQuery(filters);
        if (query === null) throw new Error('a filter value with a double quote cannot be used for all matching messages; write it in Search instead');
        affected = (await call(api.POST('/v1/messages/batch', { body: { action, inbox_id: inboxId, query, ...(tagList ? { tags: tagList } : {}) } }))).affected;
      } else {
        for (let start = 0; start < chosen.length; start += BATCH_IDS) {
          const ids = chosen.slice(start, start + BATCH_IDS);
          affected += (await call(api.POST('/v1/messages/batch', { body: { action, inbox_id: inboxId, ids, ...(tagList ? { tags: tagList } : {}) } }))).affected;
        }
      }
      if (chosen === null) {
        // Everything matching changed, loaded or not: list again.
        pages.reload();
        setSelection({ mode: 'ids', ids: new Set() });
        setActive(-1);
      } else {
        pages.update(new Set(chosen), (message) => {
          switch (action) {
            case 'delete': return null;
            case 'read': return { ...message, read: true };
            case 'unread': return { ...message, read: false };
            case 'tag': return { ...message, tags: [...new Set([...message.tags, ...tagList!])] };
            case 'untag': return { ...message, tags: message.tags.filter((tag) => !tagList!.includes(tag)) };
          }
        });
        if (action === 'delete') {
          setSelection({ mode: 'ids', ids: new Set() });
          setActive((index) => Math.min(index, items.length - 1 - chosen.length));
        }
      }
      const verb = { read: 'Marked read', unread: 'Marked unread', delete: 'Deleted', tag: 'Tagged', untag: 'Untagged' }[action];
      setNotice(`${verb}: ${affected.toLocaleString()} message(s).`);
      inbox.reload();
      if (action === 'tag' || action === 'untag') tags.reload();
    });
  };

  /** What a key or toolbar button acts on: the selection, else the message under the keyboard cursor. */
  const target = (): string[] | null => {
    if (selection.mode === 'matching') return null;
    if (selection.ids.size > 0) return selectedIds();
    const message = items[active];
    return message ? [message.id] : [];
  };

  const askDelete = () => {
    const chosen = target();
    if (chosen !== null && chosen.length === 0) return;
    if (chosen !== null && chosen.length === 1) return void runBatch('delete', chosen);
    setConfirmingDelete({ ids: chosen, count: chosen === null ? 'every message matching the search' : `${chosen.length.toLocaleString()} messages` });
  };

  const toggleUnread = () => {
    const chosen = target();
    if (chosen !== null && chosen.length === 0) return;
    const chosenSet = chosen && new Set(chosen);
    const anyUnread = items.some((message) => (chosenSet ? chosenSet.has(message.id) : true) && !message.read);
    void runBatch(anyUnread ? 'read' : 'unread', chosen);
  };

  const moveActive = (step: number) => {
    if (items.length === 0) return;
    const next = Math.max(0, Math.min(items.length - 1, active + step));
    focusActive.current = true;
    setActive(next);
    virtualizer.scrollToIndex(next, { align: 'auto' });
  };

  useShortcuts([
    { key: 'j', description: 'Next message', run: () => moveActive(1) },
    { key: 'k', description: 'Previous message', run: () => moveActive(-1) },
    { key: 'x', description: 'Select or unselect the message', run: () => active >= 0 && toggle(active, false) },
    { key: '/', description: 'Search', run: () => document.getElementById('message-search')?.focus() },
    { key: 'u', description: 'Mark the selected or current message read or unread', run: toggleUnread },
    { key: 'Delete', description: 'Delete the selected or current message', run: askDelete },
    {
      key: 'Escape',
      description: 'Clear the selection, or back to the inboxes',
      run: () => (nothingSelected ? navigate('/inboxes') : setSelection({ mode: 'ids', ids: new Set() })),
    },
  ]);

  const onSearch = (next: MessageFilters) => {
    const query = new URLSearchParams(Object.entries(next) as [string, string][]).toString();
    navigate(`/inboxes/${inboxId}${query ? `?${query}` : ''}`);
  };

  const tagColors = new Map((tags.data ?? []).map((tag) => [tag.name, tag.color]));
  const tagInput = tagName.trim().toLowerCase();
  const selectionText = selection.mode === 'matching'
    ? (filtered ? 'Every message matching the search is selected.' : `All ${(counts?.messages ?? items.length).toLocaleString()} messages are selected.`)
    : `${selection.ids.size.toLocaleString()} selected`;

  if (inbox.error) {
    return <Page title="Inbox"><Alert error={inbox.error} /><p><Link to="/inboxes">Back to the inboxes</Link></p></Page>;
  }
  return (
    <Page title={inbox.data?.name ?? 'Inbox'}>
      <p class="muted inbox-facts">
        {counts ? `${counts.messages.toLocaleString()} ${counts.messages === 1 ? 'message' : 'messages'}, ${counts.unread.toLocaleString()} unread. ` : null}
        <LiveState state={streamState} />
      </p>
      <SearchForm filters={filters} onSearch={onSearch} />
      <div class="toolbar" role="toolbar" aria-label="Selected messages">
        <span class="selection-count" aria-live="polite">{selectionText}</span>
        <button type="button" class="quiet" onClick={() => setSelection({ mode: 'matching' })}>
          {filtered ? 'Select all matching the search' : 'Select all'}
        </button>
        <button type="button" class="quiet" disabled={nothingSelected} onClick={() => setSelection({ mode: 'ids', ids: new Set() })}>Clear selection</button>
        <button type="button" disabled={nothingSelected} onClick={() => void runBatch('read', target())}>Mark read</button>
        <button type="button" disabled={nothingSelected} onClick={() => void runBatch('unread', target())}>Mark unread</button>
        <span class="row tag-form">
          <input type="text" list="known-tags" aria-label="Tag name" placeholder="tag" value={tagName} onInput={(event) => setTagName(event.currentTarget.value)} />
          <datalist id="known-tags">{(tags.data ?? []).map((tag) => <option key={tag.name} value={tag.name} />)}</datalist>
          <button type="button" disabled={nothingSelected || tagInput === ''} onClick={() => void runBatch('tag', target(), [tagInput])}>Add tag</button>
          <button type="button" disabled={nothingSelected || tagInput === ''} onClick={() => void runBatch('untag', target(), [tagInput])}>Remove tag</button>
        </span>
        <button type="button" class="danger" disabled={nothingSelected} onClick={askDelete}>Delete</button>
      </div>
      {notice ? <Status>{notice}</Status> : null}
      <Alert error={error ?? pages.error} />
      {pages.loading && items.length === 0 ? <Loading /> : null}
      {!pages.loading && items.length === 0 && !pages.error ? <p>{filtered ? 'No message matches the search.' : 'No messages yet. Send one to this inbox\'s SMTP credentials; it appears here as it arrives.'}</p> : null}
      <div class="message-scroller" ref={scroller}>
        <div class="message-list" role="list" aria-label="Messages" style={{ height: `${virtualizer.getTotalSize()}px` }}>
          {rows.map((row) => {
            const message = items[row.index];
            // Rows are placed with CSSOM styles (transform), which the CSP's style-src allows; markup carries no style.
            const place = { transform: `translateY(${row.start}px)` };
            if (!message) {
              return <div key={row.key} role="listitem" class="message-row more" style={place}>{pages.error ? 'Could not load more messages.' : 'Loading more…'}</div>;
            }
            const subject = message.subject || '(no subject)';
            const sender = message.from || message.envelope_from || '(no sender)';
            const classes = ['message-row', message.read ? '' : 'unread', row.index === active ? 'active' : '', isSelected(message) ? 'selected' : ''].filter(Boolean).join(' ');
            return (
              <div key={row.key} role="listitem" data-index={row.index} class={classes} style={place}
                aria-setsize={pages.nextCursor === null ? items.length : -1} aria-posinset={row.index + 1}
                onFocusIn={() => setActive(row.index)}>
                <input type="checkbox" checked={isSelected(message)} aria-label={`Select: ${subject}, from ${sender}`}
                  onClick={(event) => toggle(row.index, event.shiftKey)} />
                <Link to={`/inboxes/${inboxId}/messages/${message.id}`} class="message-link">
                  <span class="message-from">{message.read ? null : <span class="visually-hidden">Unread: </span>}{sender}</span>
                  <span class="message-when"><When at={message.received_at} /></span>
                  <span class="message-subject">{subject}</span>
                  <span class="message-tags">{message.tags.map((tag) => <TagChip key={tag} name={tag} color={tagColors.get(tag)} />)}</span>
                </Link>
              </div>
            );
          })}
        </div>
      </div>
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
