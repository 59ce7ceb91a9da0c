// The message viewer's tab panels other than the HTML preview (html-preview.tsx) and the checks (message-checks.tsx).
// Each loads what it shows when it is opened.
import { api, envelope, type Schemas } from '../api.js';
import { useServerData } from '../server-state.js';
import { DataTable, Resource } from './resource.js';
import { RawSource, SourceView } from './source-view.js';

type Message = Schemas['MessageDetail'];

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
