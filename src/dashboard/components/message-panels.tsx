// The message viewer's tab panels other than the checks (message-checks.tsx). Each loads what it shows when it is opened.
import { useState } from 'preact/hooks';
import { api, envelope, type Schemas } from '../api.js';
import { useServerData } from '../server-state.js';
import { DataTable, Resource } from './resource.js';
import { RawSource, SourceView } from './source-view.js';
import { MailFrame, type PreviewScheme, type PreviewWidth } from './mail-frame.js';
import { SegmentedControl, type Segment } from './segmented-control.js';
import { useRememberedChoice } from '../remembered-choice.js';

type Message = Schemas['MessageDetail'];

const WIDTHS: readonly Segment<PreviewWidth>[] = [
  { key: 'phone', label: 'Phone', title: '375 px wide' },
  { key: 'tablet', label: 'Tablet', title: '768 px wide' },
  { key: 'desktop', label: 'Desktop', title: 'The full width of the page' },
];

const SCHEMES: readonly Segment<PreviewScheme>[] = [
  { key: 'light', label: 'Light', title: 'As a mail client in light mode shows it, whatever your system prefers' },
  { key: 'dark', label: 'Dark', title: 'As a mail client in dark mode shows it: the mail\'s dark-mode styles apply' },
];

/** The signed HTML link with remote content allowed; `remote` is outside the signature, so the link stays valid. */
function withRemoteContent(url: string): string {
  const allowed = new URL(url);
  allowed.searchParams.set('remote', '1');
  return allowed.toString();
}

/**
 * The HTML body in a frame from its signed link, at a chosen width and colour scheme (mail-frame.tsx), both remembered
 * for the next message. Remote images,
 * styles and fonts stay blocked until asked for, for this message only: loading them tells the sender that, and when,
 * the message was opened.
 */
export function HtmlPanel(props: { message: Message }) {
  const [width, setWidth] = useRememberedChoice<PreviewWidth>('mail-sandbox.preview-width', WIDTHS.map((segment) => segment.key), 'desktop');
  const [scheme, setScheme] = useRememberedChoice<PreviewScheme>('mail-sandbox.preview-scheme', SCHEMES.map((segment) => segment.key), 'light');
  const [remote, setRemote] = useState(false);
  const url = props.message.files.html;
  if (url === undefined) return <p>This message has no HTML part.</p>;
  return (
    <div class="stack">
      <div class="preview-controls">
        <SegmentedControl label="Preview width" segments={WIDTHS} selected={width} onSelect={setWidth} />
        <SegmentedControl label="Preview colour scheme" segments={SCHEMES} selected={scheme} onSelect={setScheme} />
        <label class="check">
          <input type="checkbox" checked={remote} aria-describedby="remote-content-note" onChange={(event) => setRemote(event.currentTarget.checked)} />
          Load remote content
        </label>
        <p id="remote-content-note" class="muted remote-content-note">
          {remote
            ? 'Images, styles and fonts from the web are shown; the sender can tell that this message was opened.'
            : 'Images, styles and fonts from the web are blocked, so opening this message does not tell its sender.'}
        </p>
      </div>
      <div class="frame-wrap">
        <MailFrame src={remote ? withRemoteContent(url) : url} title={`HTML body of ${props.message.subject || 'the message'}`} width={width} scheme={scheme} />
      </div>
    </div>
  );
}

export function TextPanel(props: { message: Message }) {
  if (props.message.text === undefined) return <p>This message has no text part.</p>;
  // A labelled region in the Tab order, so keyboard users can scroll a long body.
  return <pre class="body-text" role="region" aria-label="Text body" tabIndex={0}>{props.message.text}</pre>;
}

/** The raw message as text; envelope() turns a refusal into an ApiError as for JSON answers. */
const rawSource = (id: string) => envelope(api.GET('/v1/messages/{id}/raw', { params: { path: { id } }, parseAs: 'text' }));

/** The raw message with its long parts folded, and the HTML part's source (source-view.tsx). */
export function SourcePanel(props: { message: Message }) {
  const source = useServerData(['message-source', props.message.id], () => rawSource(props.message.id));
  return <SourceView message={props.message} raw={<Resource resource={source}>{(text) => <RawSource text={text} />}</Resource>} />;
}

export function HeadersPanel(props: { message: Message }) {
  const headers = Object.entries(props.message.headers ?? {});
  if (headers.length === 0) return <p>No headers were decoded.</p>;
  return (
    <DataTable caption="Decoded headers" columns={['Name', 'Value']} class="headers-table">
      {headers.flatMap(([name, values]) => values.map((value, index) => (
        <tr key={`${name}-${index}`}><th scope="row" class="mono">{name}</th><td class="mono wrap">{value}</td></tr>
      )))}
    </DataTable>
  );
}

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

export function AttachmentsPanel(props: { message: Message }) {
  const { attachments, files } = props.message;
  if (attachments.length === 0) return <p>No attachments.</p>;
  // files.thumbnails has one link per image attachment, in attachment order: the n-th attachment with a thumb_url.
  let imageIndex = 0;
  return (
    <ul class="attachments">
      {attachments.map((attachment, index) => {
        const thumbnail = attachment.thumb_url === undefined ? undefined : files.thumbnails[imageIndex++];
        return (
          <li key={attachment.index} class="attachment card">
            {thumbnail ? <img src={thumbnail} alt={`Thumbnail of ${attachment.filename}`} class="thumb" loading="lazy" /> : <span class="thumb placeholder" aria-hidden="true">{attachment.content_type.split('/')[1] ?? 'file'}</span>}
            <div>
              <p class="mono wrap">{attachment.filename}</p>
              <p class="muted">{attachment.content_type} · {formatSize(attachment.size)}</p>
              <a href={files.attachments[index]} download={attachment.filename} aria-label={`Download ${attachment.filename}`}>Download</a>
            </div>
          </li>
        );
      })}
    </ul>
  );
}
