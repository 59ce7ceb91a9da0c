// The one panel every message check is shown in: it asks the server for the check when its tab is opened (so checks that
// cost the server real work run only when someone looks), or, for a check with effects beyond this server, only when
// its button is pressed; says so when the message has nothing to check, answers the refusals that are facts about the
// server, offers the check's options with "Check again", and draws the check's report.
import type { ComponentChildren, JSX } from 'preact';
import { useState } from 'preact/hooks';
import { ApiError, type Schemas } from '../api.js';
import { invalidate, useServerData } from '../server-state.js';
import type { TabSpec } from './tabs.js';
import { Resource } from './resource.js';
import { Alert } from './ui.js';
import { useRememberedChoice } from '../remembered-choice.js';

type Message = Schemas['MessageDetail'];

export interface ReportProps<Result, Options> {
  message: Message;
  result: Result;
  options: Options;
  /** Whether the check is being run: false before a check asked first has been asked for, and once it answered. */
  checking: boolean;
}

/** How a check's report is drawn: once its result is there, or from the start with a note while the check runs. */
type ReportDrawing<Result, Options> =
  | { checkingNote?: undefined; Report: (props: ReportProps<Result, Options>) => JSX.Element }
  /**
   * For a check that takes long (the link check): the report shows what the message holds until the result fills it
   * in. `askFirst`: the check runs only when the person presses its button, since running it has effects beyond this
   * server (the link check requests every link, one-time links included).
   */
  | { checkingNote: (message: Message) => string; Report: (props: ReportProps<Result | null, Options>) => JSX.Element; askFirst?: AskFirst<Options> };

/**
 * A check run only when asked. `automatic`: the person may let it run by itself for the message's inbox (a choice kept
 * in this browser), then with `options(defaults)`, which spares what must not be touched unasked.
 */
interface AskFirst<Options> {
  button: string;
  note: string;
  automatic?: { label: string; note: string; options: (options: Options) => Options };
}

const automaticKey = (view: string, inboxId: string) => `mail-sandbox.automatic-${view}.${inboxId}`;

export type CheckView<Result, Options> = ReportDrawing<Result, Options> & {
  /** Its tab in the message viewer: the key in the URL (?tab=) and the label. */
  tab: TabSpec<string>;
  /** Why the message has nothing for this check, said instead of asking the server; null: ask. */
  nothingToCheck: (message: Message) => string | null;
  /** Refusals that are a fact about this server rather than a failure (the spam check not configured), by error code. */
  answeredRefusals?: Partial<Record<string, ComponentChildren>>;
  /** The check's request: its operation in the API with these options. */
  request: (messageId: string, options: Options) => Promise<Result>;
  defaults: Options;
  /** The options' controls, shown with "Check again"; checks without options show neither. */
  Controls?: (props: { options: Options; onChange: (options: Options) => void }) => JSX.Element;
};

/** A tab of the message viewer and the panel that shows a check in it. */
export interface CheckTab {
  tab: TabSpec<string>;
  Panel: (props: { message: Message }) => JSX.Element;
}

export function checkTab<Result, Options>(view: CheckView<Result, Options>): CheckTab {
  type AskedDrawing = { askFirst: AskFirst<Options>; Report: (props: ReportProps<Result | null, Options>) => JSX.Element };
  const drawing: ReportDrawing<Result, Options> = view;
  const asked: AskedDrawing | null = drawing.checkingNote !== undefined && drawing.askFirst ? { askFirst: drawing.askFirst, Report: drawing.Report } : null;

  function CheckPanel(props: { message: Message }) {
    const reason = view.nothingToCheck(props.message);
    if (reason !== null) return <p>{reason}</p>;
    return asked ? <AskedFirst message={props.message} drawing={asked} /> : <CheckedMessage message={props.message} initial={view.defaults} />;
  }

  /**
   * Until its button is pressed: what the message holds, the check's options, and the button; nothing is requested.
   * Where the inbox runs it by itself, it runs at once with the automatic options.
   */
  function AskedFirst(props: { message: Message; drawing: AskedDrawing }) {
    const [options, setOptions] = useState(view.defaults);
    const [pressed, setPressed] = useState(false);
    const { askFirst, Report } = props.drawing;
    const { automatic } = askFirst;
    const [runsAlone, setRunsAlone] = useRememberedChoice<'on' | 'off'>(automaticKey(view.tab.key, props.message.inbox_id), ['on', 'off'], 'off');
    const choice = automatic ? (
      <label class="check">
        <input type="checkbox" checked={runsAlone === 'on'} onChange={(event) => setRunsAlone(event.currentTarget.checked ? 'on' : 'off')} />
        {automatic.label}
      </label>
    ) : null;
    if (automatic && runsAlone === 'on' && !pressed) {
      return (
        <div class="stack">
          <p class="muted">{automatic.note}</p>
          {choice}
          <CheckedMessage message={props.message} initial={automatic.options(view.defaults)} />
        </div>
      );
    }
    if (pressed) return <CheckedMessage message={props.message} initial={options} />;
    return (
      <div class="stack">
        <p class="muted">{askFirst.note}</p>
        <div class="row">
          {view.Controls ? <view.Controls options={options} onChange={setOptions} /> : null}
          <button type="button" onClick={() => setPressed(true)}>{askFirst.button}</button>
        </div>
        {choice}
        <Report message={props.message} result={null} options={options} checking={false} />
      </div>
    );
  }

  function CheckedMessage(props: { message: Message; initial: Options }) {
    const [options, setOptions] = useState(props.initial);
    const key = [view.tab.key, props.message.id, options];
    const check = useServerData(key, () => view.request(props.message.id, options));
    const answer = check.error instanceof ApiError ? view.answeredRefusals?.[check.error.code] : undefined;
    if (answer !== undefined) return <p>{answer}</p>;
    const controls = view.Controls ? (
      <div class="row">
        <view.Controls options={options} onChange={setOptions} />
        <button type="button" class="quiet" onClick={() => invalidate(key)}>Check again</button>
      </div>
    ) : null;
    if (drawing.checkingNote === undefined) {
      const report = <Resource resource={check}>{(result) => <drawing.Report message={props.message} result={result} options={options} checking={false} />}</Resource>;
      return controls ? <div class="stack">{controls}{report}</div> : report;
    }
    return (
      <div class="stack">
        {controls}
        {check.data === null && !check.error ? <p class="muted" role="status">{drawing.checkingNote(props.message)}</p> : null}
        <Alert error={check.error} />
        <drawing.Report message={props.message} result={check.data} options={options} checking={check.data === null && !check.error} />
      </div>
    );
  }
  return { tab: view.tab, Panel: CheckPanel };
}

