// Values people paste elsewhere: a read-only field, a code block or a secret shown once, each with a Copy button named
// after what it copies. Copying is here once: the clipboard, or where it is out of reach, the text selected for Ctrl+C.
import { useState } from 'preact/hooks';
import { Status } from './ui.js';

/**
 * `what` names the button ("Copy Host") where several copy buttons share a screen. A secret shown once has the one Copy
 * button near it, named just "Copy", so that its label names only its field; copying is what the person came for
 * there, so the button is not a quiet one.
 */
function CopyButton(props: { what?: string; value: string; fallbackTarget: string }) {
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
      <button type="button" class={props.what ? 'quiet' : undefined} aria-label={props.what ? `Copy ${props.what}` : undefined} onClick={() => void copy()}>Copy</button>
      {copied ? <Status>{props.what ? `Copied ${props.what}.` : 'Copied to the clipboard.'}</Status> : null}
    </>
  );
}

/** A short value shown inline (a one-time code) with its Copy button, named after what it copies. */
export function CopyInline(props: { id: string; what: string; value: string }) {
  return (
    <span class="copy-inline">
      <code id={props.id}>{props.value}</code>
      <CopyButton what={props.what} value={props.value} fallbackTarget={props.id} />
    </span>
  );
}

/** A link opened in a new tab, with a Copy button for its address, named after the link's text. */
export function CopyLink(props: { id: string; text: string; url: string }) {
  return (
    <span class="copy-inline">
      <a id={props.id} class="wrap" href={props.url} target="_blank" rel="noopener noreferrer" title={props.url}>{props.text}</a>
      <CopyButton what={`link ${props.text}`} value={props.url} fallbackTarget={props.id} />
    </span>
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

/** A secret shown once: read-only field, a Copy button, and a note that it will not be shown again. */
export function OneTimeSecret(props: { label: string; value: string; note: string }) {
  const id = `secret-${props.label.replace(/\W+/g, '-').toLowerCase()}`;
  return (
    <div class="secret">
      <label for={id}>{props.label}</label>
      <div class="row">
        <input id={id} class="mono" readOnly value={props.value} onFocus={(event) => event.currentTarget.select()} />
        <CopyButton value={props.value} fallbackTarget={id} />
      </div>
      <p class="hint">{props.note}</p>
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
