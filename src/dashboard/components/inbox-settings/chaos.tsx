// The inbox's chaos settings (GET/PUT /v1/inboxes/{id}/chaos): every stage's trigger, the disconnect and the delay,
// and "Try it", the server's dry run (POST .../chaos/test) of the saved settings. Admins change them; members see
// them read-only (the API answers 403 role_required to their PUT) and may still try them, as a read key may.
import { useState } from 'preact/hooks';
import { CHAOS_BEHAVIOUR_STAGES, CHAOS_CODES, type ChaosStage } from '../../../domain/chaos.js';
import { api, call, type Schemas } from '../../api.js';
import { Alert, Loading, Status } from '../ui.js';
import { invalidate, useServerData } from '../../server-state.js';
import { atLeast, useRole } from '../../session.js';
import { useAction } from '../../use-action.js';

type Chaos = Schemas['ChaosSettings'];
type BehaviourStage = Schemas['ChaosBehaviourStage'];

/** The stages in the order a session meets them; the reply codes each allows are the server's (CHAOS_CODES). */
const TRIGGERS: { stage: ChaosStage; label: string }[] = [
  { stage: 'connection', label: 'Connection (decided at AUTH, then closed)' },
  { stage: 'authentication', label: 'Authentication (AUTH)' },
  { stage: 'sender', label: 'Sender (MAIL FROM)' },
  { stage: 'recipient', label: 'Recipient (each RCPT TO)' },
  { stage: 'data', label: 'Data (end of DATA)' },
];

function TriggerFields(props: { chaos: Chaos; spec: (typeof TRIGGERS)[number]; onChange: (chaos: Chaos) => void }) {
  const { stage, label } = props.spec;
  const codes = CHAOS_CODES[stage];
  const trigger = props.chaos[stage];
  const set = (change: Partial<typeof trigger>) => props.onChange({ ...props.chaos, [stage]: { ...trigger, ...change } });
  const id = `chaos-${stage}`;
  return (
    <fieldset>
      <legend>{label}</legend>
      <div class="field">
        <label for={`${id}-probability`}>Probability (%)</label>
        <input id={`${id}-probability`} type="number" min={0} max={100} step="any" required value={trigger.probability}
          onInput={(event) => set({ probability: event.currentTarget.valueAsNumber })} />
      </div>
      <div class="field">
        <label for={`${id}-code`}>Reply code</label>
        <select id={`${id}-code`} value={String(trigger.code)} onChange={(event) => set({ code: Number(event.currentTarget.value) as typeof trigger.code })}>
          {codes.map((code) => <option key={code} value={String(code)}>{code}</option>)}
        </select>
      </div>
      <div class="field">
        <label for={`${id}-message`}>Reply text</label>
        <input id={`${id}-message`} maxLength={200} value={trigger.message ?? ''} onInput={(event) => set({ message: event.currentTarget.value })} />
      </div>
    </fieldset>
  );
}

function StageSelect(props: { id: string; value: BehaviourStage; onChange: (stage: BehaviourStage) => void }) {
  return (
    <div class="field">
      <label for={props.id}>Stage</label>
      <select id={props.id} value={props.value} onChange={(event) => props.onChange(event.currentTarget.value as BehaviourStage)}>
        {CHAOS_BEHAVIOUR_STAGES.map((stage) => <option key={stage} value={stage}>{stage}</option>)}
      </select>
    </div>
  );
}

function DryRun(props: { inboxId: string }) {
  const [outcome, setOutcome] = useState<Schemas['ChaosTest'] | null>(null);
  const { error, run } = useAction();
  const tryIt = () => run(async () => {
    setOutcome(await call(api.POST('/v1/inboxes/{id}/chaos/test', { params: { path: { id: props.inboxId } } })));
  });
  return (
    <div class="stack">
      <div class="row">
        <button type="button" class="quiet" onClick={() => void tryIt()}>Try it</button>
        <span class="hint">A dry run of the saved settings: each stage rolled once; nothing is sent.</span>
      </div>
      <Alert error={error} />
      {outcome ? (
        <div class="table-wrap">
          <table>
            <caption>Dry run {outcome.enabled ? '' : '(chaos is disabled: every stage accepts)'}</caption>
            <thead><tr><th scope="col">Stage</th><th scope="col">Result</th><th scope="col">Reply</th><th scope="col">Closes the connection</th><th scope="col">Delay</th></tr></thead>
            <tbody>
              {TRIGGERS.map(({ stage }) => {
                const result = outcome[stage];
                return (
                  <tr key={stage}>
                    <th scope="row">{stage}</th>
                    <td>{result.result}</td>
                    <td class="mono wrap">{result.code === null ? 'no reply' : `${result.code} ${result.enhanced_code ?? ''} ${result.message ?? ''}`}</td>
                    <td>{result.closes_connection ? 'yes' : 'no'}</td>
                    <td>{result.delay_ms} ms</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ) : null}
    </div>
  );
}

export function ChaosSettings(props: { inboxId: string }) {
  const canChange = atLeast(useRole(), 'admin');
  const loaded = useServerData(['chaos', props.inboxId], () => call(api.GET('/v1/inboxes/{id}/chaos', { params: { path: { id: props.inboxId } } })));
  const [draft, setDraft] = useState<Chaos | null>(null);
  const { error, submit } = useAction();
  const [saved, setSaved] = useState<string | null>(null);
  const chaos = draft ?? loaded.data;
  const change = (next: Chaos) => {
    setSaved(null);
    setDraft(next);
  };
  const save = submit(async () => {
    if (chaos === null) return;
    const stored = await call(api.PUT('/v1/inboxes/{id}/chaos', { params: { path: { id: props.inboxId } }, body: chaos }));
    setDraft(stored);
    // Opened again, the settings show what is stored; the inbox and the inboxes table show whether chaos is armed.
    invalidate(['chaos', props.inboxId]);
    invalidate(['inbox', props.inboxId]);
    invalidate(['inboxes']);
    setSaved(stored.enabled ? 'Saved: chaos is armed.' : 'Saved: chaos is disarmed.');
  });
  return (
    <section aria-labelledby="chaos-heading" class="card stack">
      <h2 id="chaos-heading">Chaos</h2>
      <p class="muted">Make this inbox's SMTP server refuse, drop or delay on purpose, to test how your application copes.</p>
      {canChange ? null : <p class="hint">Only admins and owners change chaos settings; you can see them and try them.</p>}
      <Alert error={loaded.error} />
      {chaos === null && !loaded.error ? <Loading /> : null}
      {chaos ? (
        <form class="stack" onSubmit={save} aria-label="Chaos settings">
          <fieldset disabled={!canChange} class="stack">
            <legend>Settings</legend>
            <label class="check">
              <input type="checkbox" checked={chaos.enabled} onChange={(event) => change({ ...chaos, enabled: event.currentTarget.checked })} />
              Enabled (armed)
            </label>
            <div class="settings-grid">
              {TRIGGERS.map((spec) => <TriggerFields key={spec.stage} chaos={chaos} spec={spec} onChange={change} />)}
              <fieldset>
                <legend>Disconnect without a reply</legend>
                <StageSelect id="chaos-disconnect-stage" value={chaos.disconnect.stage} onChange={(stage) => change({ ...chaos, disconnect: { ...chaos.disconnect, stage } })} />
                <div class="field">
                  <label for="chaos-disconnect-probability">Probability (%)</label>
                  <input id="chaos-disconnect-probability" type="number" min={0} max={100} step="any" required value={chaos.disconnect.probability}
                    onInput={(event) => change({ ...chaos, disconnect: { ...chaos.disconnect, probability: event.currentTarget.valueAsNumber } })} />
                </div>
              </fieldset>
              <fieldset>
                <legend>Delay the reply</legend>
                <StageSelect id="chaos-delay-stage" value={chaos.delay.stage} onChange={(stage) => change({ ...chaos, delay: { ...chaos.delay, stage } })} />
                <div class="field">
                  <label for="chaos-delay-probability">Probability (%)</label>
                  <input id="chaos-delay-probability" type="number" min={0} max={100} step="any" required value={chaos.delay.probability}
                    onInput={(event) => change({ ...chaos, delay: { ...chaos.delay, probability: event.currentTarget.valueAsNumber } })} />
                </div>
                <div class="field">
                  <label for="chaos-delay-ms">Delay (ms, at most 30000)</label>
                  <input id="chaos-delay-ms" type="number" min={0} max={30000} step={1} required value={chaos.delay.ms}
                    onInput={(event) => change({ ...chaos, delay: { ...chaos.delay, ms: event.currentTarget.valueAsNumber } })} />
                </div>
              </fieldset>
            </div>
            <button type="submit">Save chaos settings</button>
          </fieldset>
          <Alert error={error} />
          {saved ? <Status>{saved}</Status> : null}
        </form>
      ) : null}
      <DryRun inboxId={props.inboxId} />
    </section>
  );
}
