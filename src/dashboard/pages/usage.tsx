// The workspace's plan: its limits and this month's usage; changing plan is an operator action (the admin CLI).
import { api, call } from '../api.js';
import { Resource } from '../components/resource.js';
import { Page, When } from '../components/ui.js';
import { useServerData } from '../server-state.js';
import { useSession } from '../session.js';

function limit(value: number | null, unit = ''): string {
  return value === null ? 'unlimited' : `${value.toLocaleString()}${unit}`;
}

export function Usage() {
  const plan = useServerData(['plan'], () => call(api.GET('/v1/plan')));
  const workspaceId = useSession().me?.workspace.id ?? '<ws>';
  return (
    <Page title="Usage">
      <Resource resource={plan}>
        {(data) => (
          <>
            <section aria-labelledby="usage-heading" class="card">
              <h2 id="usage-heading">This month</h2>
              <p class="muted">Since <When at={data.usage.period_start} /> (calendar month, UTC).</p>
              <dl class="facts">
                <dt>Emails received</dt><dd>{data.usage.used.toLocaleString()} of {limit(data.usage.monthly_limit)}</dd>
                {data.usage.monthly_limit !== null ? (
                  <dd class="meter-row">
                    <meter min={0} max={data.usage.monthly_limit} value={data.usage.used} aria-label="Share of the monthly email limit used" />
                  </dd>
                ) : null}
                <dt>Members</dt><dd>{data.usage.members} of {limit(data.usage.member_limit)}</dd>
                <dt>Inboxes</dt><dd>{data.usage.inboxes} of {limit(data.inbox_limit)}</dd>
              </dl>
            </section>
            <section aria-labelledby="plan-heading" class="card">
              <h2 id="plan-heading">Plan: {data.name}</h2>
              {data.configured ? null : (
                <p role="status">This plan is not configured on the server: no mail is deleted for age, and the strictest limits of the configured plans apply until an operator sets it up.</p>
              )}
              <dl class="facts">
                <dt>Emails per month</dt><dd>{limit(data.monthly_limit)}</dd>
                <dt>Retention</dt><dd>{data.retention_days === null ? 'kept until deleted' : `${data.retention_days} days`}</dd>
                <dt>Members</dt><dd>{limit(data.member_limit)}</dd>
                <dt>Inboxes</dt><dd>{limit(data.inbox_limit)}</dd>
                <dt>Webhooks</dt><dd>{limit(data.webhook_limit)}</dd>
                <dt>API requests</dt><dd>{limit(data.requests_per_second, ' per second')}</dd>
              </dl>
              <p>Plan changes are an operator action, not a dashboard one. An operator runs:</p>
              <pre class="mono"><code>{data.how_to_change.replace(/^[^:]*:\s*/, '').replace('<ws>', workspaceId)}</code></pre>
            </section>
          </>
        )}
      </Resource>
    </Page>
  );
}
