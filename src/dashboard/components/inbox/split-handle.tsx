// The handle between an inbox's list and its open message on a wide screen: dragged, or moved with the arrow keys
// (Home and End for the narrowest and widest), it sets the list's width, which the next visit starts from.
import { useState } from 'preact/hooks';
import { rememberChoice, storedNumber } from '../../remembered-choice.js';

const WIDTH_KEY = 'mail-sandbox.list-width';
/** The list's narrowest, in px: a sender, a subject and a time still fit on a row. */
const NARROWEST = 288;
/** The list's widest, as a share of the window: the message keeps the rest. */
const WIDEST_SHARE = 0.6;
const KEY_STEP = 32;

const widest = () => Math.round(window.innerWidth * WIDEST_SHARE);
const clamp = (width: number) => Math.round(Math.min(widest(), Math.max(NARROWEST, width)));

/** The list's width chosen with the handle (px), or null for the stylesheet's. */
export function useListWidth(): [number | null, (width: number) => void] {
  const [width, setWidth] = useState(() => storedNumber(WIDTH_KEY, NARROWEST, 4096));
  const choose = (next: number) => {
    const fitted = clamp(next);
    setWidth(fitted);
    rememberChoice(WIDTH_KEY, String(fitted));
  };
  return [width, choose];
}

/** `width`: the list's width now (px), as laid out; `left`: where the list starts. */
export function SplitHandle(props: { width: () => number; left: () => number; onResize: (width: number) => void }) {
  const [dragging, setDragging] = useState(false);
  const now = props.width();
  const onKeyDown = (event: KeyboardEvent) => {
    const next = { ArrowLeft: now - KEY_STEP, ArrowRight: now + KEY_STEP, Home: NARROWEST, End: widest() }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    props.onResize(next);
  };
  return (
    <div role="separator" aria-orientation="vertical" aria-label="Width of the message list" tabIndex={0}
      aria-valuenow={now} aria-valuemin={NARROWEST} aria-valuemax={widest()} class={dragging ? 'split-handle dragging' : 'split-handle'}
      onKeyDown={onKeyDown}
      onPointerDown={(event) => {
        event.currentTarget.setPointerCapture(event.pointerId);
        setDragging(true);
      }}
      onPointerMove={(event) => dragging && props.onResize(event.clientX - props.left())}
      onPointerUp={() => setDragging(false)}
      onPointerCancel={() => setDragging(false)} />
  );
}
