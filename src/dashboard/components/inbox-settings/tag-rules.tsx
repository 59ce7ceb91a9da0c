// The inbox's tag rules (GET/POST /v1/tag-rules?inbox_id=, DELETE /v1/tag-rules/{id}). The query is checked as it
// is typed: after a pause, a one-row search of the inbox with it, whose 400 invalid_query names the wrong term; the
// API has no separate validation endpoint, and a search is what the rule's query is.
import { useEffect, useState } from 'preact/hooks';
import { ApiError, api, call } from '../../api.js';
import { DataTable, Resource } from '../resource.js';
import { Alert, Status, When } from '../ui.js';
import { invalidate, useServerData } from '../../server-state.js';
import { useAction } from '../../use-action.js';

/** How long typing must pause before the query is checked, so each keystroke does not cost a request. */
const VALIDATE_AFTER_MS = 400;

type Validity = { state: 'idle' | 'checking' | 'valid' } | { state: 'invalid'; message: string };

function useQueryValidity(inboxId: string, query: string): Validity {
  const [validity, setValidity] = useState<Validity>({ state: 'idle' });
  useEffect(() => {
    if (query.trim() === '') {
      setValidity({ state: 'idle' });
      return;
    }
    let live = true;
    setValidity({ state: 'checking' });
    const timer = setTimeout(() => {
      call(api.GET('/v1/inboxes/{id}/messages', { params: { path: { id: inboxId }, query: { q: query, limit: 1 } } })).then(
        () => live && setValidity({ state: 'valid' }),
        (error: unknown) => {
          if (!live) return;
          if (error instanceof ApiError && error.code === 'invalid_query') setValidity({ state: 'invalid', message: error.message });
          else setValidity({ state: 'idle' });
        },
      );
    }, VALIDATE_AFTER_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [inboxId, query]);
  return validity;
}

function CreateRule(props: { inboxId: string }) {
  const [query, setQuery] = useState('');
  const [tags, setTags] = useState('');
  const { error, submit } = useAction();
  const [created, setCreated] = useState<string | null>(null);
  const validity = useQueryValidity(props.inboxId, query);
  const create = submit(async () => {
    setCreated(null);
    const tagList = tags.split(',').map((tag) => tag.trim()).filter((tag) => tag !== '');
    const rule = await call(api.POST('/v1/tag-rules', { body: { inbox_id: props.inboxId, query, tags: tagList } }));
    setCreated(`Rule created: ${rule.query || 'every message'} → ${rule.tags.join(', ')}.`);
    setQuery('');
    setTags('');
    invalidate(['tag-rules', props.inboxId]);
  });
  return (
    <form class="stack" onSubmit={create} aria-labelledby="new-rule-heading">
      <h3 id="new-rule-heading">New rule</h3>
      <div class="inline-form">
        <div class="field">
          <label for="rule-query">Query</label>
          <input id="rule-query" class="mono" maxLength={2000} value={query} placeholder="from:noreply@shop.test subject:invoice"
            aria-invalid={validity.state === 'invalid'} aria-describedby="rule-query-check" onInput={(event) => setQuery(event.currentTarget.value)} />
          <p id="rule-query-check" class="hint" aria-live="polite">
            {validity.state === 'invalid' ? <span class="bad">{validity.message}</span> : null}
            {validity.state === 'valid' ? 'Valid query.' : null}
            {validity.state === 'checking' ? 'Checking…' : null}
            {validity.state === 'idle' ? 'Search syntax; empty matches every message.' : null}
          </p>
        </div>
        <div class="field">
          <label for="rule-tags">Tags (comma separated)</label>
          <input id="rule-tags" required value={tags} placeholder="shop, invoice" onInput={(event) => setTags(event.currentTarget.value)} />
        </div>
        <button type="submit" disabled={validity.state === 'invalid'}>Add rule</button>
      </div>
      <Alert error={error} />
      {created ? <Status>{created}</Status> : null}
    </form>
  );
}

export function TagRules(props: { inboxId: string }) {
  const rules = useServerData(['tag-rules', props.inboxId], () => call(api.GET('/v1/tag-rules', { params: { query: { inbox_id: props.inboxId } } })));
  const { error, run } = useAction();
  const remove = (id: string) => run(async () => {
    await call(api.DELETE('/v1/tag-rules/{id}', { params: { path: { id } } }));
    invalidate(['tag-rules', props.inboxId]);
  });
  return (
    <section aria-labelledby="rules-heading" class="card stack">
      <h2 id="rules-heading">Tag rules</h2>
      <p class="muted">Tags given to matching messages as they arrive in this inbox, before anyone sees them.</p>
      <Alert error={error} />
      <Resource resource={rules} empty="No rules for this inbox.">
        {(list) => (
          <DataTable caption="Tag rules of this inbox" columns={['Query', 'Tags', 'Created', 'Actions']}>
            {list.map((rule) => (
              <tr key={rule.id}>
                <td class="mono wrap">{rule.query || <span class="muted">every message</span>}</td>
                <td>{rule.tags.join(', ')}</td>
                <td><When at={rule.created_at} /></td>
                <td><button type="button" class="danger" aria-label={`Delete the rule ${rule.query || 'for every message'}`} onClick={() => void remove(rule.id)}>Delete</button></td>
              </tr>
            ))}
          </DataTable>
        )}
      </Resource>
      <CreateRule inboxId={props.inboxId} />
    </section>
  );
}
