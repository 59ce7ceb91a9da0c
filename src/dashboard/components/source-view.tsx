// The Source tab's two views: the raw message (the .eml, as received) and the HTML part's source. Either can be many
// megabytes, so neither is put in the page whole: the raw message is cut into its MIME parts (mime-parts.ts) and each
// long part body is folded to its first lines behind a "Show all" button; what is unfolded, and the HTML source, are
// added a few thousand lines at a time as they are scrolled to. The page holds a few hundred kilobytes of text at
// most until someone scrolls through more.
import type { ComponentChildren } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { api, envelope, type Schemas } from '../api.js';
import { useServerData } from '../server-state.js';
import { Resource } from './resource.js';
import { SegmentedControl, type Segment as Choice } from './segmented-control.js';
import { advanceLines, countLines, splitMime, type Segment } from './mime-parts.js';
import './source-view.css';

type Message = Schemas['MessageDetail'];
type View = 'raw' | 'html';

/** A part body, preamble or epilogue longer than either is folded. */
const FOLD_CHARS = 2000;
const FOLD_LINES = 40;
/** A header block is folded only when it is far longer than headers are. */
const FOLD_HEADER_CHARS = 64 * 1024;
const FOLD_HEADER_LINES = 400;
/** What a folded block still shows. */
const PREVIEW_LINES = 4;
const PREVIEW_CHARS = 400;
const PREVIEW_HEADER_LINES = 60;
const PREVIEW_HEADER_CHARS = 8000;
/** What is added at a time to an unfolded block or the HTML source. */
const CHUNK_LINES = 2000;
const CHUNK_CHARS = 160_000;
/** The blocks shown before "Show the rest of the message": about this much text, and at most this many blocks. */
const STEP_CHARS = 120_000;
const STEP_BLOCKS = 300;

const VIEWS: readonly Choice<View>[] = [
  { key: 'raw', label: 'Raw message', title: 'The message as received (.eml), long part bodies folded' },
  { key: 'html', label: 'HTML part', title: 'The source of the message\'s HTML body' },
];

const number = new Intl.NumberFormat('en-US');

function sizeOf(chars: number): string {
  if (chars < 1024) return `${chars} B`;
  if (chars < 1024 * 1024) return `${(chars / 1024).toFixed(1)} KiB`;
  return `${(chars / 1024 / 1024).toFixed(1)} MiB`;
}

const lines = (count: number) => `${number.format(count)} ${count === 1 ? 'line' : 'lines'}`;

/**
 * The Source tab: a choice of the raw message (the default) and, when the message has one, the HTML part's source,
 * with the link to download the .eml. `raw` is the raw view, loaded by the caller. A view once opened stays in the
 * page, hidden, while the other is shown, so switching back keeps what was unfolded.
 */
export function SourceView(props: { message: Message; raw: ComponentChildren }) {
  const { message } = props;
  const hasHtml = message.html !== undefined || message.files.html !== undefined;
  const [view, setView] = useState<View>('raw');
  const [htmlOpened, setHtmlOpened] = useState(false);
  const choose = (next: View) => {
    if (next === 'html') setHtmlOpened(true);
    setView(next);
  };
  return (
    <div class="stack source-view">
      <div class="source-controls">
        {hasHtml
          ? <SegmentedControl label="Source view" segments={VIEWS} selected={view} onSelect={choose} />
          : <p class="muted">This message has no HTML part; its raw source is below.</p>}
        <p><a href={message.files.raw} download={`${message.id}.eml`}>Download the source (.eml)</a></p>
      </div>
      <div hidden={view !== 'raw'}>{props.raw}</div>
      {hasHtml && htmlOpened && <div hidden={view !== 'html'}><HtmlSource message={message} /></div>}
    </div>
  );
}

/** The HTML body as text; envelope() turns a refusal into an ApiError as for JSON answers. */
const htmlBody = (id: string) => envelope(api.GET('/v1/messages/{id}/html', { params: { path: { id } }, parseAs: 'text' }));

/** The HTML part's source: the detail's copy when it is whole, else the whole body read from the server. */
function HtmlSource(props: { message: Message }) {
  const { message } = props;
  const whole = message.html !== undefined && !(message.truncated ?? []).includes('html');
  if (whole) return <HtmlText text={message.html!} note="The HTML body as the message has it, decoded." />;
  return <FetchedHtml id={message.id} />;
}

function FetchedHtml(props: { id: string }) {
  const html = useServerData(['message-html-source', props.id], () => htmlBody(props.id));
  return (
    <Resource resource={html}>
      {(text) => <HtmlText text={text} note="The HTML body as the server serves it, decoded, with its cid: images inlined as data: URIs." />}
    </Resource>
  );
}

function HtmlText(props: { text: string; note: string }) {
  const { text } = props;
  const total = useMemo(() => countLines(text, 0, text.length), [text]);
  return (
    <div class="stack">
      <p class="muted source-summary">{props.note} {lines(total)}, {sizeOf(text.length)}.</p>
      <pre class="source html-source" role="region" aria-label="HTML part source" tabIndex={0}>
        {text.length === 0 ? '' : <ChunkedText text={text} start={0} end={text.length} total={total} />}
      </pre>
    </div>
  );
}

interface Block {
  segment: Segment;
  lines: number;
  folded: boolean;
  /** What it puts in the page before anything is unfolded, in characters. */
  cost: number;
}

function previewEnd(text: string, block: Block): number {
  const { start, end, kind } = block.segment;
  return kind === 'headers'
    ? advanceLines(text, start, end, PREVIEW_HEADER_LINES, PREVIEW_HEADER_CHARS)
    : advanceLines(text, start, end, PREVIEW_LINES, PREVIEW_CHARS);
}

function blocksOf(text: string): Block[] {
  return splitMime(text).map((segment) => {
    const length = segment.end - segment.start;
    const count = countLines(text, segment.start, segment.end);
    const folded = segment.kind === 'headers'
      ? length > FOLD_HEADER_CHARS || count > FOLD_HEADER_LINES
      : length > FOLD_CHARS || count > FOLD_LINES;
    const block: Block = { segment, lines: count, folded, cost: length };
    if (folded) block.cost = previewEnd(text, block) - segment.start;
    return block;
  });
}

/** How many blocks to show after `shown`: the next step's worth, at least one. */
function nextStep(blocks: Block[], shown: number): number {
  let cost = 0;
  let index = shown;
  while (index < blocks.length && index - shown < STEP_BLOCKS && (index === shown || cost + blocks[index]!.cost <= STEP_CHARS)) {
    cost += blocks[index]!.cost;
    index++;
  }
  return index;
}

/** The raw message, cut into its parts with the long ones folded. */
export function RawSource(props: { text: string }) {
  const { text } = props;
  const blocks = useMemo(() => blocksOf(text), [text]);
  const [shown, setShown] = useState(() => nextStep(blocks, 0));
  const parts = blocks.filter((block) => block.segment.kind === 'body').length;
  const folded = blocks.some((block) => block.folded);
  const rest = blocks.slice(shown).reduce((sum, block) => sum + block.segment.end - block.segment.start, 0);
  return (
    <div class="stack">
      <p class="muted source-summary">
        {sizeOf(text.length)}{parts > 1 ? `, ${number.format(parts)} parts` : ''}.
        {folded ? ' Long part bodies are folded to their first lines.' : ''}
      </p>
      <pre class="source mime-source" role="region" aria-label="Message source" tabIndex={0}>
        {blocks.slice(0, shown).map((block) => <SourceBlock key={block.segment.start} text={text} block={block} />)}
        {shown < blocks.length && (
          <span class="fold-bar">
            <span>{`${sizeOf(rest)} more in ${number.format(blocks.length - shown)} sections.`}</span>
            <button type="button" class="small quiet" onClick={() => setShown(nextStep(blocks, shown))}>Show more of the message</button>
          </span>
        )}
      </pre>
    </div>
  );
}

function whatIs(segment: Segment): string {
  if (segment.kind === 'headers') return 'Headers';
  if (segment.kind === 'boundary') return 'Boundary line';
  if (segment.kind === 'text') return segment.depth === 0 ? 'Text not read as MIME' : 'Text outside the parts';
  return `${segment.contentType ?? 'text/plain'}, ${segment.encoding ?? '7bit'}`;
}

function SourceBlock(props: { text: string; block: Block }) {
  const { text, block } = props;
  const { segment } = block;
  const [open, setOpen] = useState(false);
  const className = segment.kind === 'boundary' ? 'mime-boundary' : undefined;
  if (!block.folded) return <span class={className}>{text.slice(segment.start, segment.end)}</span>;
  const id = `source-block-${segment.start}`;
  const preview = previewEnd(text, block);
  const size = sizeOf(segment.end - segment.start);
  return (
    <>
      <span class="fold-bar">
        <span id={`${id}-what`}>{whatIs(segment)}</span>
        <button type="button" class="small quiet" aria-expanded={open} aria-controls={id} aria-describedby={`${id}-what`} onClick={() => setOpen(!open)}>
          {open ? `Fold the ${lines(block.lines)}` : `Show all ${lines(block.lines)} (${size})`}
        </button>
      </span>
      <span id={id} class={className}>
        {open
          ? <ChunkedText text={text} start={segment.start} end={segment.end} total={block.lines} />
          : text.slice(segment.start, preview)}
      </span>
      {!open && (
        <span class="fold-rest">{`⋯ ${lines(Math.max(block.lines - countLines(text, segment.start, preview), 0))} more, ${sizeOf(segment.end - preview)}`}</span>
      )}
    </>
  );
}

/**
 * text[start, end) added to the page a chunk at a time: the first at once, each next one when the row after the last
 * scrolls into view or its button is pressed. Each chunk is a text node of its own, so adding one lays out only it.
 */
function ChunkedText(props: { text: string; start: number; end: number; total: number }) {
  const { text, start, end } = props;
  const [ends, setEnds] = useState(() => [advanceLines(text, start, end, CHUNK_LINES, CHUNK_CHARS)]);
  const last = ends[ends.length - 1]!;
  const more = () => setEnds((current) => {
    const from = current[current.length - 1]!;
    return from >= end ? current : [...current, advanceLines(text, from, end, CHUNK_LINES, CHUNK_CHARS)];
  });
  const row = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    const element = row.current;
    if (element === null || typeof IntersectionObserver === 'undefined') return;
    // Seen from the source's own scroll box (which may itself reach below the window), a screenful ahead; a new
    // observer after each chunk, as it reports at once whether the row is still that near.
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) more();
    }, { root: element.closest('.source'), rootMargin: '0px 0px 100% 0px' });
    observer.observe(element);
    return () => observer.disconnect();
  }, [last]);
  const shownLines = useMemo(() => countLines(text, start, last), [text, start, last]);
  const next = Math.min(CHUNK_LINES, props.total - shownLines);
  return (
    <>
      {ends.map((chunkEnd, index) => <span key={index}>{text.slice(index === 0 ? start : ends[index - 1], chunkEnd)}</span>)}
      {last < end && (
        <span class="fold-bar" ref={row}>
          <span>{`Shown ${number.format(shownLines)} of ${lines(props.total)}; more follow as you scroll.`}</span>
          <button type="button" class="small quiet" onClick={more}>{`Show the next ${lines(Math.max(next, 1))}`}</button>
        </span>
      )}
    </>
  );
}
