// The HTML tab: the body in a frame from its signed link (mail-frame.tsx), and the preview's controls, which sit in the
// tab row beside the tabs so the mail starts right under them. Width and colour scheme are remembered for the next
// message; remote images, styles and fonts stay blocked until asked for, for this message only: loading them tells the
// sender that, and when, the message was opened.
import { useState } from 'preact/hooks';
import type { Schemas } from '../api.js';
import { MailFrame, type PreviewScheme, type PreviewWidth } from './mail-frame.js';
import { SegmentedControl, type Segment } from './segmented-control.js';
import { useRememberedChoice } from '../remembered-choice.js';

type Message = Schemas['MessageDetail'];

const WIDTHS: readonly Segment<PreviewWidth>[] = [
  { key: 'phone', label: 'Phone', title: '375 px wide' },
  { key: 'tablet', label: 'Tablet', title: '768 px wide' },
  { key: 'desktop', label: 'Desktop', title: 'The full width of the page' },
];

const SCHEMES: readonly Segment<PreviewScheme>[] = [
  { key: 'light', label: 'Light', title: 'As a mail client in light mode shows it, whatever your system prefers' },
  { key: 'dark', label: 'Dark', title: 'As a mail client in dark mode shows it: the mail\'s dark-mode styles apply' },
];

export interface PreviewSettings {
  width: PreviewWidth;
  setWidth: (width: PreviewWidth) => void;
  scheme: PreviewScheme;
  setScheme: (scheme: PreviewScheme) => void;
  remote: boolean;
  setRemote: (remote: boolean) => void;
}

/** The viewer's preview settings: width and scheme remembered, remote content off for each message opened. */
export function usePreviewSettings(): PreviewSettings {
  const [width, setWidth] = useRememberedChoice<PreviewWidth>('mail-sandbox.preview-width', WIDTHS.map((segment) => segment.key), 'desktop');
  const [scheme, setScheme] = useRememberedChoice<PreviewScheme>('mail-sandbox.preview-scheme', SCHEMES.map((segment) => segment.key), 'light');
  const [remote, setRemote] = useState(false);
  return { width, setWidth, scheme, setScheme, remote, setRemote };
}

/** The signed HTML link with remote content allowed; `remote` is outside the signature, so the link stays valid. */
function withRemoteContent(url: string): string {
  const allowed = new URL(url);
  allowed.searchParams.set('remote', '1');
  return allowed.toString();
}

/** Width, colour scheme and remote content, for the tab row. What remote content does is said as its description. */
export function PreviewControls(props: { preview: PreviewSettings }) {
  const { preview } = props;
  return (
    <div class="preview-controls">
      <SegmentedControl label="Preview width" segments={WIDTHS} selected={preview.width} onSelect={preview.setWidth} />
      <SegmentedControl label="Preview colour scheme" segments={SCHEMES} selected={preview.scheme} onSelect={preview.setScheme} />
      <label class="check" title={preview.remote ? undefined : 'Images, styles and fonts from the web are blocked, so opening this message does not tell its sender.'}>
        <input type="checkbox" checked={preview.remote} aria-describedby="remote-content-note" onChange={(event) => preview.setRemote(event.currentTarget.checked)} />
        Load remote content
      </label>
    </div>
  );
}

export function HtmlPanel(props: { message: Message; preview: PreviewSettings }) {
  const { message, preview } = props;
  const url = message.files.html;
  if (url === undefined) return <p>This message has no HTML part.</p>;
  return (
    <>
      {/* Shown while remote content is loaded (the sender can tell); while blocked, the checkbox's description only. */}
      <p id="remote-content-note" class={preview.remote ? 'muted remote-content-note' : 'visually-hidden'}>
        {preview.remote
          ? 'Images, styles and fonts from the web are shown; the sender can tell that this message was opened.'
          : 'Images, styles and fonts from the web are blocked, so opening this message does not tell its sender.'}
      </p>
      <div class="frame-wrap">
        <MailFrame src={preview.remote ? withRemoteContent(url) : url} title={`HTML body of ${message.subject || 'the message'}`} width={preview.width} scheme={preview.scheme} />
      </div>
    </>
  );
}
