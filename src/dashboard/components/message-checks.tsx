// The message checks the viewer shows, in their tab order: each one's view of its check (see check-panel.tsx). A new
// check shown on the dashboard is an entry here.
import { api, call, type Schemas } from '../api.js';
import { checkTab, type CheckTab, type ReportProps } from './check-panel.js';
import { DataTable } from './resource.js';

type LinkCheckOptions = { follow: boolean; skipOneTime: boolean };
const requestLinkCheck = (id: string, { follow, skipOneTime }: LinkCheckOptions) =>
  call(api.GET('/v1/messages/{id}/link-check', { params: { path: { id }, query: { follow, skip_one_time: skipOneTime } } }));
type LinkCheckResult = Awaited<ReturnType<typeof requestLinkCheck>>;

/** The host a link goes to, as the person judges where it leads. */
const hostOf = (url: string): string => {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
};

/** Links the check left alone because they look one-time (asked for by the automatic check). */
const skippedCount = (result: LinkCheckResult) => result.Links.filter((link) => link.Status.startsWith('skipped:')).length;

const linkCheck = checkTab<LinkCheckResult, LinkCheckOptions>({
  tab: { key: 'links', label: 'Links' },
  nothingToCheck: (message) => (message.links.length > 0 ? null : 'This message has no http(s) links.'),
  request: requestLinkCheck,
  defaults: { follow: false, skipOneTime: false },
  Controls: ({ options, onChange }) => (
    <label class="check"><input type="checkbox" checked={options.follow} onChange={(event) => onChange({ ...options, follow: event.currentTarget.checked })} /> Follow redirects</label>
  ),
  checkingNote: (message) => `Checking ${message.links.length} links…`,
  // Opening a mail must not spend the one-time links in it (a password reset, a verification) that a test is about to use.
  askFirst: {
    button: 'Check links',
    note: 'The links are not requested until you press Check links: a request can use up a one-time link (a password reset, a verification, a sign-in link) that your test is about to follow.',
    automatic: {
      label: 'Check links by themselves in this inbox, skipping one-time ones',
      note: 'Links are checked as the tab opens in this inbox; links that look one-time (a reset, a verification, a sign-in, a token) are not requested.',
      options: (options) => ({ ...options, skipOneTime: true }),
    },
  },
  // Drawn before the result comes, so it is typed here: the union of the two drawings gives it no contextual type.
  Report: ({ message, result, options: { follow }, checking }: ReportProps<LinkCheckResult | null, LinkCheckOptions>) => {
    const outcomes = new Map((result?.Links ?? []).map((link) => [link.URL, link]));
    // The words a link is written on, where the mail gives it some (the first of them for a link written twice).
    const words = new Map<string, string>();
    for (const link of message.link_details) if (link.text !== '' && !words.has(link.url)) words.set(link.url, link.text);
    return (
      <>
        {result ? (
          <p role="status">
            {result.Errors === 0 ? 'Every checked link answered.' : `${result.Errors} of ${result.Links.length} checked links failed.`}
            {skippedCount(result) > 0 ? ` ${skippedCount(result)} one-time-looking ${skippedCount(result) === 1 ? 'link was' : 'links were'} not requested.` : ''}
            {result.Capped ? ` Only the first ${result.Links.length} of ${result.Found} were checked.` : ''}
          </p>
        ) : null}
        <DataTable caption="Links and the link check's results" columns={['Link', 'Words', 'Host', 'Status', ...(follow ? ['Final URL'] : [])]}>
          {message.links.map((url) => {
            const outcome = outcomes.get(url);
            const skipped = outcome?.Status.startsWith('skipped:') ?? false;
            const failed = outcome !== undefined && !skipped && (outcome.StatusCode === 0 || outcome.StatusCode >= 400);
            return (
              <tr key={url}>
                <td class="wrap"><a href={url} target="_blank" rel="noopener noreferrer">{url}</a></td>
                <td class="wrap">{words.get(url) ?? <span class="muted">none</span>}</td>
                <td class="wrap">{hostOf(url)}</td>
                <td class={failed ? 'bad' : undefined}>{outcome ? `${outcome.StatusCode === 0 ? '—' : outcome.StatusCode} ${outcome.Status}` : <span class="muted">{result ? 'not checked' : checking ? 'checking…' : 'not requested yet'}</span>}</td>
                {follow ? <td class="wrap">{outcome?.FinalURL ?? ''}{outcome?.Redirects ? ` (${outcome.Redirects} redirects)` : ''}</td> : null}
              </tr>
            );
          })}
        </DataTable>
      </>
    );
  },
});

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

const htmlCheck = checkTab<Schemas['HtmlCheck'], Record<string, never>>({
  tab: { key: 'html-check', label: 'HTML check' },
  nothingToCheck: (message) => (message.has_html ? null : 'This message has no HTML part to check.'),
  request: (id) => call(api.GET('/v1/messages/{id}/html-check', { params: { path: { id } } })),
  defaults: {},
  Report: ({ result }) => <HtmlCheckFindings report={result} />,
});

const spamCheck = checkTab<Schemas['SpamCheck'], Record<string, never>>({
  tab: { key: 'spam', label: 'Spam' },
  nothingToCheck: () => null,
  answeredRefusals: { not_configured: <>The spam check is not configured on this server (it needs <code>SANDBOX_SPAMD_URL</code>).</> },
  request: (id) => call(api.GET('/v1/messages/{id}/spam-check', { params: { path: { id } } })),
  defaults: {},
  Report: ({ result: { IsSpam, Score, RequiredScore, Rules } }) => (
    <div class="stack">
      <p class="lead">Score {Score} of {RequiredScore} needed: {IsSpam ? 'spam' : 'not spam'}.</p>
      <DataTable caption="SpamAssassin rules that fired" columns={['Rule', 'Score', 'Description']}>
        {Rules.map((rule) => <tr key={rule.Name}><td class="mono">{rule.Name}</td><td>{rule.Score}</td><td>{rule.Description}</td></tr>)}
      </DataTable>
    </div>
  ),
});

export const MESSAGE_CHECKS: CheckTab[] = [linkCheck, htmlCheck, spamCheck];
