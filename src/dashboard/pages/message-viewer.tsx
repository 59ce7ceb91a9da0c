// One message (GET /v1/messages/{id}): a compact header (sender, recipients and time; read state and actions in one
// toolbar; the rest of the envelope and headers behind "Details"), the codes and links, then the tabs (HTML, Text,
// Source, Headers, Attachments, Links, HTML check, Spam), so the email itself starts in the first screen. The open tab
// is in the URL (?tab=source), so a tab can be linked to; choosing one replaces the history entry rather than adding
// one, so Back leaves the message (to the inbox it was opened from) however many tabs were looked at. Opening a
// message marks it read, as mail clients do.
import type { ComponentChildren, JSX } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { api, call, type Schemas } from '../api.js';
import { useNavigate, type PageProps } from '../router.js';
import { ConfirmDialog } from '../components/dialog.js';
import { Resource } from '../components/resource.js';
import { Alert, Link, Page, When } from '../components/ui.js';
import { useServerData } from '../server-state.js';
import { messageDetailKey, PRESSED_READ_FRESH_MS, readMessageDetail } from '../message-detail.js';
import { changeMessages } from '../message-cache.js';
import { Tabs, type TabSpec } from '../components/tabs.js';
import { useAction } from '../use-action.js';
import { AttachmentsPanel, HeadersPanel, SourcePanel, TextPanel, formatSize } from '../components/message-panels.js';
import { HtmlPanel, PreviewControls, usePreviewSettings, type PreviewSettings } from '../components/html-preview.js';
import { MESSAGE_CHECKS } from '../components/message-checks.js';
import { CopyInline, CopyLink } from '../components/copy.js';
import { senderName } from '../components/inbox/sender-name.js';
import { Paperclip } from '../components/paperclip.js';
import { newMailWords } from '../components/inbox/new-mail-pill.js';
import '../viewer.css';

type Message = Schemas['MessageDetail'];
/** The message's own views, then its checks. */
const VIEWS: { tab: TabSpec<string>; Panel: (props: { message: Message; preview: PreviewSettings }) => JSX.Element }[] = [
  { tab: { key: 'html', label: 'HTML' }, Panel: HtmlPanel },
  { tab: { key: 'text', label: 'Text' }, Panel: TextPanel },
  { tab: { key: 'source', label: 'Source' }, Panel: SourcePanel },
  { tab: { key: 'headers', label: 'Headers' }, Panel: HeadersPanel },
  { tab: { key: 'attachments', label: 'Attachments' }, Panel: AttachmentsPanel },
  ...MESSAGE_CHECKS,
];
/** Views that show nothing for some messages, hidden for those; the rest always apply. */
const APPLIES: Record<string, (message: Message) => boolean> = {
  html: (message) => message.has_html,
  text: (message) => message.has_text,
  attachments: (message) => message.attachments.length > 0,
  links: (message) => message.links.length > 0,
  'html-check': (message) => message.has_html,
};
/** What a tab counts, shown after its name. */
const COUNTS: Record<string, (message: Message) => number> = {
  attachments: (message) => message.attachments.length,
  links: (message) => message.links.length,
};

/** The views that apply to the message (all of them before it is loaded). */
function viewsFor(message: Message | null): typeof VIEWS {
  return message === null ? VIEWS : VIEWS.filter((view) => APPLIES[view.tab.key]?.(message) ?? true);
}

function tabsFor(message: Message | null): TabSpec<string>[] {
  return viewsFor(message).map(({ tab }) => {
    const count = message && COUNTS[tab.key]?.(message);
    return count ? { ...tab, label: `${tab.label} (${count.toLocaleString()})` } : tab;
  });
}

/**
 * The attachments as chips under the header, each one click from its download, so a PDF is seen without opening a tab.
 */
function AttachmentChips(props: { message: Message }) {
  const { attachments, files } = props.message;
  if (attachments.length === 0) return null;
  return (
    <ul class="plain attachment-chips" aria-label="Attachments of this message">
      {attachments.map((attachment, index) => (
        <li key={attachment.index}>
          <a class="attachment-chip" href={files.attachments[index]} download={attachment.filename} title={attachment.content_type}>
            <Paperclip /><span class="visually-hidden">Download </span>
            <span class="wrap">{attachment.filename || `attachment ${index + 1}`}</span> <span class="muted">{formatSize(attachment.size)}</span>
          </a>
        </li>
      ))}
    </ul>
  );
}

/** The addresses (lower case) written in address headers such as To and Cc, display names aside. */
function addressesIn(values: string[]): Set<string> {
  const found = new Set<string>();
  for (const value of values) for (const match of value.matchAll(/[^\s<>,;:"()[\]]+@[^\s<>,;:"()[\]]+/g)) found.add(match[0].toLowerCase());
  return found;
}

/**
 * Sender, recipients and received time in two lines under the subject: the sender's name (and address, if it has a
 * name), the To and Cc lines cut to one line (in full under Details, which the second line ends with). `children`: the
 * toolbar, on the second line after the recipients.
 */
function MessageHeader(props: { message: Message; detailsOpen: boolean; onToggleDetails: () => void; children: ComponentChildren }) {
  const { message } = props;
  const name = message.from ? senderName(message.from) : '';
  const address = /<([^>]*)>/.exec(message.from)?.[1]?.trim() ?? '';
  const cc = message.headers?.cc?.join(', ');
  const recipients = [message.to ? `to ${message.to}` : 'no To header', cc ? `cc ${cc}` : ''].filter(Boolean).join('; ');
  return (
    <div class="message-header">
      <p class="header-line">
        <span class="header-text" title={message.from || undefined}>
          {message.from
            ? <><span class="sender-name">{name}</span>{address && address !== name ? <span class="muted"> &lt;{address}&gt;</span> : null}</>
            : <span class="muted">No sender (no From header)</span>}
        </span>
        <span class="muted received"><When at={message.received_at} /></span>
      </p>
      <div class="header-line tools-line">
        <span class="header-text muted" title={recipients}>{recipients}</span>
        {props.children}
        <button type="button" class="disclosure" aria-expanded={props.detailsOpen} aria-controls="message-details" onClick={props.onToggleDetails}>
          Details
        </button>
      </div>
    </div>
  );
}

/**
 * Everything else the message's header and envelope say. Closed, the facts are hidden "until found": the browser's
 * find in page still reaches them, opening the disclosure (beforematch).
 */
function MessageDetails(props: { message: Message; open: boolean; onFound: () => void }) {
  const { message, onFound } = props;
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = panel.current;
    element?.addEventListener('beforematch', onFound);
    return () => element?.removeEventListener('beforematch', onFound);
  }, [onFound]);
  const headers = message.headers ?? {};
  const visible = addressesIn([message.to, ...(headers.cc ?? [])]);
  const unsubscribe = message.list_unsubscribe;
  const row = (label: string, value: string | undefined) => (value ? <><dt>{label}</dt><dd class="wrap">{value}</dd></> : null);
  return (
    <div id="message-details" ref={panel} class="message-details" hidden={props.open ? false : 'until-found'}>
      <dl class="facts message-facts">
        {row('From', message.from)}
        {row('To', message.to)}
        {row('Cc', headers.cc?.join(', '))}
        {row('Reply-To', headers['reply-to']?.join(', '))}
        {row('Date', headers.date?.[0])}
        <dt>Received</dt><dd><When at={message.received_at} /></dd>
        <dt>Envelope sender</dt><dd class="wrap">{message.envelope_from || <span class="muted">none (null sender &lt;&gt;)</span>}</dd>
        <dt>Envelope recipients</dt>
        <dd>
          <ul class="plain">
            {message.recipients.map((recipient) => (
              <li key={recipient} class="wrap">{recipient}{visible.has(recipient.toLowerCase()) ? null : <> <span class="badge">Bcc</span></>}</li>
            ))}
          </ul>
        </dd>
        <dt>Size</dt><dd>{formatSize(message.size)}</dd>
        <dt>TLS</dt><dd>{message.tls ? 'yes' : 'no (plain SMTP)'}</dd>
        {row('Message-ID', message.message_id)}
        {unsubscribe ? (
          <>
            <dt>List-Unsubscribe</dt>
            <dd>
              <ul class="plain">
                {(unsubscribe.links ?? []).map((link) => <li key={link} class="wrap"><a href={link} target="_blank" rel="noopener noreferrer">{link}</a></li>)}
              </ul>
              {unsubscribe.header_post ? <p class="hint">One-click: {unsubscribe.header_post}</p> : null}
              {unsubscribe.errors ? <p class="hint">Problems: {unsubscribe.errors}</p> : null}
            </dd>
          </>
        ) : null}
        {message.parse_error ? <><dt>Parse error</dt><dd>{message.parse_error}</dd></> : null}
      </dl>
    </div>
  );
}

/** Links shown beside the codes: the first few a reader would act on. */
const MAIN_LINKS = 3;
/** Footer links no test follows: they are never the link a mail is sent for. */
const FOOTER_LINK = /unsubscribe|opt[- ]?out|preferences|privacy|terms|view (?:it )?in (?:your )?browser|facebook|twitter|instagram|linkedin|youtube|tiktok|^x$/i;

/**
 * What a test author opens a mail for: its one-time codes and its main links (the first ones with words on them,
 * footers aside), each one click from the clipboard, in one line right above the mail where they fit.
 */
function CodesAndLinks(props: { message: Message }) {
  const { codes, link_details: links } = props.message;
  const main = links.filter((link) => link.source === 'text' || (link.text !== '' && !FOOTER_LINK.test(link.text))).slice(0, MAIN_LINKS);
  if (codes.length === 0 && main.length === 0) return null;
  return (
    <section aria-labelledby="codes-and-links-heading" class="codes-and-links">
      <h2 id="codes-and-links-heading" class="visually-hidden">Codes and links</h2>
      {codes.length > 0 ? (
        <p class="row">
          <span class="muted">{codes.length === 1 ? 'Code' : 'Codes'}</span>
          {codes.map((code, index) => <CopyInline key={code.value} id={`code-${index}`} what={`code ${code.value}`} value={code.value} />)}
        </p>
      ) : null}
      {main.length > 0 ? (
        <ul class="plain row" aria-label="Main links">
          {main.map((link, index) => <li key={link.url}><CopyLink id={`main-link-${index}`} text={link.text || link.url} url={link.url} /></li>)}
        </ul>
      ) : null}
    </section>
  );
}

/**
 * The tags as chips, each with its remove button, and an "Add tag" button that opens a one-field form in their place
 * (Escape or Cancel closes it and gives the focus back to the button).
 */
function Tags(props: { message: Message; onChange: (tags: string[]) => void }) {
  const { message } = props;
  const [adding, setAdding] = useState(false);
  const [draft, setDraft] = useState('');
  const opener = useRef<HTMLButtonElement>(null);
  const { error, run } = useAction();
  const path = { id: message.id };
  const close = () => {
    setAdding(false);
    setDraft('');
    // The button comes back in the render this schedules; focus it once it is there.
    requestAnimationFrame(() => opener.current?.focus());
  };
  const add = (event: Event) => {
    event.preventDefault();
    const tag = draft.trim();
    if (tag === '') return;
    void run(async () => {
      const added = await call(api.POST('/v1/messages/{id}/tags', { params: { path }, body: { tag } }));
      props.onChange([...new Set([...message.tags, added.tag])].sort());
      close();
    });
  };
  const remove = (tag: string) => run(async () => {
    await call(api.DELETE('/v1/messages/{id}/tags/{name}', { params: { path: { ...path, name: tag } } }));
    props.onChange(message.tags.filter((existing) => existing !== tag));
  });
  return (
    <>
      {message.tags.length > 0 ? (
        <ul class="viewer-tags" aria-label="Tags of this message">
          {message.tags.map((tag) => (
            <li key={tag} class="viewer-tag">
              <span>{tag}</span>
              <button type="button" class="tag-remove" aria-label={`Remove tag ${tag}`} onClick={() => void remove(tag)}>×</button>
            </li>
          ))}
        </ul>
      ) : null}
      {adding ? (
        <form class="add-tag-form" onSubmit={add} onKeyDown={(event) => event.key === 'Escape' && close()}>
          <label for="new-tag" class="visually-hidden">New tag</label>
          <input id="new-tag" class="tag-input" maxLength={64} value={draft} placeholder="new tag" autoFocus onInput={(event) => setDraft(event.currentTarget.value)} />
          <button type="submit" class="small">Add</button>
          <button type="button" class="small quiet" onClick={close}>Cancel</button>
        </form>
      ) : (
        <button type="button" class="small quiet" ref={opener} onClick={() => setAdding(true)}>
          <span aria-hidden="true">+ </span>Add tag
        </button>
      )}
      <Alert error={error} />
    </>
  );
}

/** Read state, tags and the actions, on the recipients' line; they wrap only where the pane is narrow. */
function MessageToolbar(props: { message: Message; onChange: (message: Message) => void; onDeleted: () => void }) {
  const { message } = props;
  const [confirming, setConfirming] = useState(false);
  const { error, run } = useAction();
  const path = { id: message.id };
  const toggleRead = () => run(async () => {
    const state = message.read
      ? await call(api.DELETE('/v1/messages/{id}/read', { params: { path } }))
      : await call(api.PUT('/v1/messages/{id}/read', { params: { path } }));
    props.onChange({ ...message, read: state.read });
  });
  const remove = () => run(async () => {
    setConfirming(false);
    await call(api.DELETE('/v1/messages/{id}', { params: { path } }));
    props.onDeleted();
  });
  return (
    <>
      <div class="message-toolbar">
        <span role="status" class={`read-state ${message.read ? 'read' : 'unread'}`}>{message.read ? 'Read' : 'Unread'}</span>
        <Tags message={message} onChange={(tags) => props.onChange({ ...message, tags })} />
        <span class="toolbar-actions">
          <button type="button" class="small quiet" onClick={() => void toggleRead()}>{message.read ? 'Mark unread' : 'Mark read'}</button>
          <a class="button-link small" href={message.files.raw} download={`${message.id}.eml`}>Download .eml</a>
          <button type="button" class="small danger" onClick={() => setConfirming(true)}>Delete</button>
        </span>
      </div>
      <Alert error={error} />
      {confirming ? (
        <ConfirmDialog title="Delete this message?" confirmLabel="Yes, delete it" onConfirm={() => void remove()} onCancel={() => setConfirming(false)}>
          <p>This cannot be undone.</p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}

/** The header with its toolbar, and the details, in the order they are read; the details open below the lines they add to. */
function MessageTop(props: { message: Message; onChange: (message: Message) => void; onDeleted: () => void }) {
  const [detailsOpen, setDetailsOpen] = useState(false);
  const openDetails = useCallback(() => setDetailsOpen(true), []);
  return (
    <div class="message-top">
      <MessageHeader message={props.message} detailsOpen={detailsOpen} onToggleDetails={() => setDetailsOpen((shown) => !shown)}>
        <MessageToolbar message={props.message} onChange={props.onChange} onDeleted={props.onDeleted} />
      </MessageHeader>
      <MessageDetails message={props.message} open={detailsOpen} onFound={openDetails} />
    </div>
  );
}

/** The view the URL names, else the first that applies (HTML; Text for a message without HTML; else Source). */
function viewOf(query: URLSearchParams, message: Message | null): (typeof VIEWS)[number] {
  const asked = query.get('tab');
  const views = viewsFor(message);
  return views.find((view) => view.tab.key === asked) ?? views[0]!;
}

/** How long a message is open before opening it counts as reading it. */
const MARK_READ_AFTER_MS = 300;

/**
 * Opening marks the message read once it has been open a moment: the write stays out of the way of the mail's own
 * page loading, and messages passed over with j/k on the way to another stay unread. The first answer arms it; the
 * message marked read or unread before then, here or in the list, cancels it.
 */
function useMarkReadOnOpen(message: Message | null, inboxId: string, onError: (error: unknown) => void): void {
  const timer = useRef<number | undefined>(undefined);
  const readWhenArmed = useRef<boolean | null>(null);
  useEffect(() => {
    if (message === null) return;
    if (readWhenArmed.current === null) {
      readWhenArmed.current = message.read;
      if (message.read) return;
      const { id } = message;
      timer.current = window.setTimeout(() => {
        call(api.PUT('/v1/messages/{id}/read', { params: { path: { id } } })).then((state) => changeMessages(inboxId, [id], { read: state.read }), onError);
      }, MARK_READ_AFTER_MS);
    } else if (message.read !== readWhenArmed.current) {
      window.clearTimeout(timer.current);
    }
  }, [message?.read]);
  useEffect(() => () => window.clearTimeout(timer.current), []);
}

/**
 * The inbox's list the viewer is shown with (the inbox page): the way back to it, and what it does when the message is
 * deleted here. (Read state and tags changed here reach the list through the cache, message-cache.ts.)
 */
export interface ListBeside {
  /** The list's route path, its search kept. */
  path: string;
  /** Messages that arrived on the list out of sight (new-mail-pill.tsx). */
  newMail: number;
  /** The message was deleted here. */
  deleted: (id: string) => void;
}

export function MessageViewer(props: PageProps & { list: ListBeside }) {
  const messageId = props.params.messageId ?? '';
  const inboxId = props.params.inboxId ?? '';
  const navigate = useNavigate();
  // A read the list began as the row was pressed is taken as it is (message-detail.ts). Changes made here or in the
  // list are written into this entry (message-cache.ts).
  const loaded = useServerData(messageDetailKey(messageId), () => readMessageDetail(messageId), { freshMs: PRESSED_READ_FRESH_MS });
  const message = loaded.data;
  const [readError, setReadError] = useState<unknown>(null);
  const change = (next: Message) => changeMessages(inboxId, [next.id], { read: next.read, tags: () => next.tags });
  useMarkReadOnOpen(message, inboxId, setReadError);
  const preview = usePreviewSettings();

  const { tab: { key: tab }, Panel } = viewOf(props.route.query, message);
  const selectTab = (key: string) => {
    const query = new URLSearchParams(props.route.query);
    query.set('tab', key);
    navigate(`${props.route.path}?${query}`, { replace: true });
  };
  const title = message ? message.subject || '(no subject)' : 'Message';

  return (
    <Page title={title}>
      {/* The inbox page shows this viewer beside the list on a wide screen, where styles.css hides the way back. */}
      <p class="pane-back">
        <Link to={props.list.path}>Back to the inbox</Link>
        {props.list.newMail > 0 ? <span class="new-mail-count"> {newMailWords(props.list.newMail)}</span> : null}
      </p>
      <Resource resource={loaded}>
        {(shown) => (
          <div class="viewer stack">
            <MessageTop message={shown} onChange={change} onDeleted={() => props.list.deleted(shown.id)} />
            <Alert error={readError} />
            {/* What a test author opens a mail for, in one strip above it where it fits. */}
            <div class="above-mail">
              <CodesAndLinks message={shown} />
              <AttachmentChips message={shown} />
            </div>
            <Tabs label="Message views" idPrefix="message" tabs={tabsFor(shown)} selected={tab} onSelect={selectTab}
              aside={tab === 'html' && shown.files.html !== undefined ? <PreviewControls preview={preview} /> : null}>
              <Panel key={`${shown.id}-${tab}`} message={shown} preview={preview} />
            </Tabs>
          </div>
        )}
      </Resource>
    </Page>
  );
}
