// The message viewer's tab panels. Each loads what it shows when it is opened, so the checks that cost the server
// real work (link check, spam check) run only when someone looks at them.
import { useState } from 'preact/hooks';
import { ApiError, api, call, envelope, type Schemas } from '../api.js';
import { invalidate, useServerData } from '../server-state.js';
import { DataTable, Resource } from './resource.js';
import { Alert } from './ui.js';

type Message = Schemas['MessageDetail'];

const WIDTHS = [
  { key: 'phone', label: 'Phone (375 px)' },
  { key: 'tablet', label: 'Tablet (768 px)' },
  { key: 'desktop', label: 'Desktop (full width)' },
] as const;
type Width = (typeof WIDTHS)[number]['key'];

/** The signed HTML link with remote content allowed; `remote` is outside the signature, so the link stays valid. */
function withRemoteContent(url: string): string {
  const allowed = new URL(url);
  allowed.searchParams.set('remote', '1');
  return allowed.toString();
}

/**
 * The HTML body in an iframe from its signed link. The server sends it under a CSP whose `sandbox` directive gives it
 * an opaque origin and no scripts; the empty sandbox attribute says the same from this side, so mail never runs script
 * even if one of the two were lost. Remote images, styles and fonts stay blocked until asked for, for this message
 * only: loading them tells the sender that, and when, the message was opened.
 */
export function HtmlPanel(props: { message: Message }) {
  const [width, setWidth] = useState<Width>('desktop');
  const [remote, setRemote] = useState(false);
  const url = props.message.files.html;
  if (url === undefined) return <p>This message has no HTML part.</p>;
  return (
    <div class="stack">
      <fieldset class="widths">
        <legend>Preview width</legend>
        {WIDTHS.map((option) => (
          <label key={option.key}>
            <input type="radio" name="preview-width" value={option.key} checked={width === option.key} onChange={() => setWidth(option.key)} />
            {option.label}
          </label>
        ))}
      </fieldset>
      <div class="remote-content">
        <label class="check">
          <input type="checkbox" checked={remote} aria-describedby="remote-content-note" onChange={(event) => setRemote(event.currentTarget.checked)} />
          Load remote content
        </label>
        <p id="remote-content-note" class="muted">
          {remote
            ? 'Images, styles and fonts from the web are shown; the sender can tell that this message was opened.'
            : 'Images, styles and fonts from the web are blocked, so opening this message does not tell its sender.'}
        </p>
      </div>
      <div class="frame-wrap">
        <iframe class={`mail-frame width-${width}`} src={remote ? withRemoteContent(url) : url} sandbox="" title={`HTML body of ${props.message.subject || 'the message'}`} referrerpolicy="no-referrer" />
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

export function SourcePanel(props: { message: Message }) {
  const source = useServerData(['message-source', props.message.id], () => rawSource(props.message.id));
  return (
    <div class="stack">
      <p><a href={props.message.files.raw} download={`${props.message.id}.eml`}>Download the source (.eml)</a></p>
      <Resource resource={source}>{(text) => <pre class="source" role="region" aria-label="Message source" tabIndex={0}>{text}</pre>}</Resource>
    </div>
  );
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

const checkLinks = (id: string, follow: boolean) => call(api.GET('/v1/messages/{id}/link-check', { params: { path: { id }, query: { follow } } }));

export function LinksPanel(props: { message: Message }) {
  const [follow, setFollow] = useState(false);
  const hasLinks = props.message.links.length > 0;
  const checkKey = ['link-check', props.message.id, follow];
  const check = useServerData(checkKey, async () => (hasLinks ? checkLinks(props.message.id, follow) : null));
  if (!hasLinks) return <p>This message has no http(s) links.</p>;
  const outcomes = new Map((check.data?.Links ?? []).map((link) => [link.URL, link]));
  return (
    <div class="stack">
      <div class="row">
        <label class="check"><input type="checkbox" checked={follow} onChange={(event) => setFollow(event.currentTarget.checked)} /> Follow redirects</label>
        <button type="button" class="quiet" onClick={() => invalidate(checkKey)}>Check again</button>
      </div>
      {check.data === null && !check.error ? <p class="muted" role="status">Checking {props.message.links.length} links…</p> : null}
      {check.data ? <p role="status">{check.data.Errors === 0 ? 'Every checked link answered.' : `${check.data.Errors} of ${check.data.Links.length} checked links failed.`}{check.data.Capped ? ` Only the first ${check.data.Links.length} of ${check.data.Found} were checked.` : ''}</p> : null}
      <Alert error={check.error} />
      <DataTable caption="Links and the link check's results" columns={['Link', 'Status', ...(follow ? ['Final URL'] : [])]}>
        {props.message.links.map((url) => {
          const outcome = outcomes.get(url);
          const failed = outcome !== undefined && (outcome.StatusCode === 0 || outcome.StatusCode >= 400);
          return (
            <tr key={url}>
              <td class="wrap"><a href={url} target="_blank" rel="noopener noreferrer">{url}</a></td>
              <td class={failed ? 'bad' : undefined}>{outcome ? `${outcome.StatusCode === 0 ? '—' : outcome.StatusCode} ${outcome.Status}` : <span class="muted">{check.data ? 'not checked' : 'checking…'}</span>}</td>
              {follow ? <td class="wrap">{outcome?.FinalURL ?? ''}{outcome?.Redirects ? ` (${outcome.Redirects} redirects)` : ''}</td> : null}
            </tr>
          );
        })}
      </DataTable>
    </div>
  );
}

type Warning = Schemas['HtmlCheckWarning'];
const SUPPORT_LABEL: Record<Schemas['HtmlCheckResult']['Support'], string> = { yes: 'supported', no: 'not supported', partial: 'partial', unknown: 'unknown' };

/** A warning's results grouped by client family: each family with its platforms' support. */
function ResultsByFamily(props: { warning: Warning }) {
  const families = new Map<string, Schemas['HtmlCheckResult'][]>();
  for (const result of props.warning.Results) families.set(result.Family, [...(families.get(result.Family) ?? []), result]);
  if (families.size === 0) return <p class="muted">No email client runs this; it is removed or ignored everywhere.</p>;
  return (
    <DataTable caption={`Support of ${props.warning.Title} per client family`} columns={['Client family', 'Support per platform']}>
      {[...families].map(([family, results]) => (
        <tr key={family}>
          <th scope="row">{family}</th>
          <td>
            <ul class="plain">
              {results.map((result) => (
                <li key={result.Name}><span class={`support support-${result.Support}`}>{SUPPORT_LABEL[result.Support]}</span> {result.Name}{result.NoteNumbers.length > 0 ? ` (note ${result.NoteNumbers.join(', ')})` : ''}</li>
              ))}
            </ul>
          </td>
        </tr>
      ))}
    </DataTable>
  );
}

const percent = (value: number) => `${value.toFixed(value % 1 === 0 ? 0 : 1)}%`;

export function HtmlCheckPanel(props: { message: Message }) {
  if (!props.message.has_html) return <p>This message has no HTML part to check.</p>;
  return <HtmlCheckReport messageId={props.message.id} />;
}

function HtmlCheckReport(props: { messageId: string }) {
  const report = useServerData(['html-check', props.messageId], () => call(api.GET('/v1/messages/{id}/html-check', { params: { path: { id: props.messageId } } })));
  return <Resource resource={report}>{(data) => <HtmlCheckFindings report={data} />}</Resource>;
}

function HtmlCheckFindings(props: { report: Schemas['HtmlCheck'] }) {
  const { Total, Warnings, Stylesheets } = props.report;
  return (
    <div class="stack">
      <dl class="facts">
        <dt>Supported</dt><dd>{percent(Total.Supported)}</dd>
        <dt>Partially supported</dt><dd>{percent(Total.Partial)}</dd>
        <dt>Not supported</dt><dd>{percent(Total.Unsupported)}</dd>
        <dt>Features looked for</dt><dd>{Total.Tests}, in {Total.Nodes} HTML elements</dd>
      </dl>
      {Warnings.length === 0 ? <p>No feature with limited support was found.</p> : null}
      <ul class="plain stack">
        {Warnings.map((warning) => (
          <li key={warning.Slug}>
            <details class="card">
              <summary>
                <strong>{warning.Title}</strong> <span class="muted">({warning.Category}{warning.Source === 'mail-sandbox' ? ', mail-sandbox rule' : ''})</span>
                {' — '}{percent(warning.Score.Unsupported)} not supported, {percent(warning.Score.Partial)} partial, used {warning.Score.Found}×
              </summary>
              <div class="stack">
                <p>{warning.Description}</p>
                {warning.URL ? <p><a href={warning.URL} target="_blank" rel="noopener noreferrer">{warning.Title} on caniemail.com</a></p> : null}
                <ResultsByFamily warning={warning} />
                {Object.keys(warning.NotesByNumber).length > 0 ? (
                  <ol class="notes">
                    {Object.entries(warning.NotesByNumber).map(([number, note]) => <li key={number} value={Number(number)}>{note}</li>)}
                  </ol>
                ) : null}
              </div>
            </details>
          </li>
        ))}
      </ul>
      {Stylesheets.length > 0 ? (
        <section aria-labelledby="stylesheets-heading">
          <h3 id="stylesheets-heading">Linked stylesheets</h3>
          <ul>{Stylesheets.map((sheet) => <li key={sheet.URL} class="wrap">{sheet.URL}: {sheet.Checked ? 'checked' : `not checked (${sheet.Error ?? 'unknown reason'})`}</li>)}</ul>
        </section>
      ) : null}
    </div>
  );
}

export function SpamPanel(props: { message: Message }) {
  const report = useServerData(['spam-check', props.message.id], () => call(api.GET('/v1/messages/{id}/spam-check', { params: { path: { id: props.message.id } } })));
  if (report.error instanceof ApiError && report.error.code === 'not_configured') {
    return <p>The spam check is not configured on this server (it needs <code>SANDBOX_SPAMD_URL</code>).</p>;
  }
  return (
    <Resource resource={report}>
      {({ IsSpam, Score, RequiredScore, Rules }) => (
        <div class="stack">
          <p class="lead">Score {Score} of {RequiredScore} needed: {IsSpam ? 'spam' : 'not spam'}.</p>
          <DataTable caption="SpamAssassin rules that fired" columns={['Rule', 'Score', 'Description']}>
            {Rules.map((rule) => <tr key={rule.Name}><td class="mono">{rule.Name}</td><td>{rule.Score}</td><td>{rule.Description}</td></tr>)}
          </DataTable>
        </div>
      )}
    </Resource>
  );
}
