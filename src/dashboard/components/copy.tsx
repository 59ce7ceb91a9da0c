// Values people paste elsewhere: a read-only field or a code block, each with a Copy button named after what it copies.
import { useState } from 'preact/hooks';
import { Status } from './ui.js';

function CopyButton(props: { what: string; value: string; fallbackTarget: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.value);
      setCopied(true);
    } catch {
      // No clipboard access (an http origin other than localhost): select the text for Ctrl+C instead.
      const target = document.getElementById(props.fallbackTarget);
      if (target instanceof HTMLInputElement) target.select();
      else if (target) window.getSelection()?.selectAllChildren(target);
      setCopied(false);
    }
  };
  return (
    <>
      <button type="button" class="quiet" aria-label={`Copy ${props.what}`} onClick={() => void copy()}>Copy</button>
      {copied ? <Status>Copied {props.what}.</Status> : null}
    </>
  );
}

export function CopyField(props: { id: string; label: string; value: string }) {
  return (
    <div class="copy-field">
      <label for={props.id}>{props.label}</label>
      <div class="row">
        <input id={props.id} class="mono" readOnly value={props.value} onFocus={(event) => event.currentTarget.select()} />
        <CopyButton what={props.label} value={props.value} fallbackTarget={props.id} />
      </div>
    </div>
  );
}

export function CopyBlock(props: { id: string; label: string; value: string }) {
  return (
    <figure class="copy-block">
      <figcaption class="row"><span id={`${props.id}-caption`}>{props.label}</span><CopyButton what={props.label} value={props.value} fallbackTarget={props.id} /></figcaption>
      <pre id={props.id} aria-labelledby={`${props.id}-caption`} tabIndex={0}><code>{props.value}</code></pre>
    </figure>
  );
}
