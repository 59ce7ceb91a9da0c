// An inbox's settings: chaos, tag rules and webhooks, each in its own section and file.
import { api, call } from '../api.js';
import type { PageProps } from '../router.js';
import { Alert, Link, Page } from '../components/ui.js';
import { useServerData } from '../server-state.js';
import { ChaosSettings } from '../components/inbox-settings/chaos.js';
import { TagRules } from '../components/inbox-settings/tag-rules.js';
import { Webhooks } from '../components/inbox-settings/webhooks.js';
import '../viewer.css';

export function InboxSettings(props: PageProps) {
  const inboxId = props.params.inboxId ?? '';
  const inbox = useServerData(['inbox', inboxId], () => call(api.GET('/v1/inboxes/{id}', { params: { path: { id: inboxId } } })));
  const name = inbox.data?.name;
  return (
    <Page title={name ? `Settings of ${name}` : 'Inbox settings'}>
      <p><Link to={`/inboxes/${encodeURIComponent(inboxId)}`}>Back to the inbox</Link></p>
      <Alert error={inbox.error} />
      {inbox.data ? (
        <>
          <ChaosSettings inboxId={inboxId} />
          <TagRules inboxId={inboxId} />
          <Webhooks inboxId={inboxId} />
        </>
      ) : null}
    </Page>
  );
}
