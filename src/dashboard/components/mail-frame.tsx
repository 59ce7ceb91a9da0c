// The frame a mail's HTML is shown in, sized to the mail, light or as in dark mode. The page comes from its signed link
// with report_height=1 (and scheme=dark): the server puts a script of its own first in it, which posts the page's
// height here (the frame's origin is opaque, so this page cannot measure it) and applies the mail's dark-mode styles;
// that script carries a nonce made for the response, and the policy the page is served under runs nothing else, so
// the mail's own scripts, handlers and javascript: URLs never run (src/http/preview-script.ts).
import { useEffect, useRef, useState } from 'preact/hooks';

/** The frame's height until the page reports one: small, because a page that fits reports no less than its frame. */
const STARTING_HEIGHT = 64;
/** About eight screens: a longer mail scrolls inside its frame rather than making the page endless. */
const MAX_HEIGHT = 6000;
/** Milliseconds after the frame's load without a report (a mail whose own policy blocks every script) before it gets a fixed height. */
const REPORT_WAIT = 1000;
/** What such a frame gets: most of the screen, scrolled inside, as before frames were sized. */
const UNREPORTED_HEIGHT = '70vh';

export type PreviewWidth = 'phone' | 'tablet' | 'desktop';
export type PreviewScheme = 'light' | 'dark';

/**
 * The height a message reports, if it is one and was measured at the frame's present width (a report sent before the
 * width changed would otherwise stick): CSS pixels, kept within the frame's limits.
 */
function reportedHeight(data: unknown, frameWidth: number): number | null {
  if (typeof data !== 'object' || data === null || !('mailFrameHeight' in data) || !('mailFrameWidth' in data)) return null;
  const { mailFrameHeight: height, mailFrameWidth: width } = data;
  if (typeof height !== 'number' || !Number.isFinite(height) || typeof width !== 'number' || Math.abs(width - frameWidth) > 1) return null;
  return Math.min(MAX_HEIGHT, Math.max(STARTING_HEIGHT, Math.ceil(height)));
}

/** The link with the preview script asked for; its parameters are outside the signature, so the link stays valid. */
function previewUrl(url: string, scheme: PreviewScheme): string {
  const preview = new URL(url);
  preview.searchParams.set('report_height', '1');
  preview.searchParams.set('scheme', scheme);
  return preview.toString();
}

/**
 * Only messages from this frame's own window are read: any other page could post one. Each load and each width starts
 * the frame small again, in the same render as the change, as a page never reports less than the frame it fills.
 */
export function MailFrame(props: { src: string; title: string; width: PreviewWidth; scheme: PreviewScheme }) {
  const frame = useRef<HTMLIFrameElement>(null);
  const src = previewUrl(props.src, props.scheme);
  /** What the height below was set for: this link at this width. */
  const layout = `${props.width} ${src}`;
  const [size, setSize] = useState<{ layout: string; height: number | string } | null>(null);
  const current = useRef(layout);
  current.current = layout;

  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      const shown = frame.current;
      if (shown === null || event.source === null || event.source !== shown.contentWindow) return;
      const height = reportedHeight(event.data, shown.clientWidth);
      if (height !== null) setSize({ layout: current.current, height });
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, []);

  const [loads, setLoads] = useState(0);
  useEffect(() => {
    if (loads === 0) return undefined;
    const loaded = current.current;
    const timer = window.setTimeout(() => {
      setSize((reported) => (reported?.layout === loaded ? reported : { layout: loaded, height: UNREPORTED_HEIGHT }));
    }, REPORT_WAIT);
    return () => window.clearTimeout(timer);
  }, [loads]);

  const height = size?.layout === layout ? size.height : STARTING_HEIGHT;
  return (
    <iframe
      ref={frame}
      class={`mail-frame width-${props.width} scheme-${props.scheme}`}
      style={{ height: typeof height === 'number' ? `${height}px` : height }}
      src={src}
      // allow-scripts lets the server's nonce'd preview script run; the policy the page comes with runs nothing else.
      // Without allow-same-origin the page keeps an opaque origin: it can reach nothing of the dashboard's.
      sandbox="allow-scripts"
      title={props.title}
      referrerpolicy="no-referrer"
      onLoad={() => setLoads((count) => count + 1)}
    />
  );
}
