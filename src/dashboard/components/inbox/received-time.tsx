// A row's received time, worded relative to now and kept current: one clock per list ticks, and each time element on
// screen re-renders itself when its wording changes, so the list itself is not re-rendered as time passes.
import { useEffect, useState } from 'preact/hooks';
import { relativeTime, type TimeWording } from './relative-time.js';

/** Often enough that "3 min. ago" is never more than a quarter of a minute behind. */
const TICK_MS = 15_000;

/** One timer for every time element of a list, running while any is on screen. */
export class ListClock {
  private readonly listeners = new Set<(now: Date) => void>();
  private timer: ReturnType<typeof setInterval> | undefined;

  private readonly tick = () => {
    const now = new Date();
    for (const listener of this.listeners) listener(now);
  };

  // A background tab's timers are slowed down: coming back, the times catch up at once.
  private readonly onVisibilityChange = () => {
    if (document.visibilityState === 'visible') this.tick();
  };

  subscribe(listener: (now: Date) => void): () => void {
    if (this.listeners.size === 0) {
      this.timer = setInterval(this.tick, TICK_MS);
      document.addEventListener('visibilitychange', this.onVisibilityChange);
    }
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size > 0) return;
      clearInterval(this.timer);
      document.removeEventListener('visibilitychange', this.onVisibilityChange);
    };
  }
}

export function ReceivedTime(props: { at: string; clock: ListClock; wording: TimeWording }) {
  const at = new Date(props.at);
  const [text, setText] = useState(() => relativeTime(at, new Date(), props.wording));
  // Setting the same wording again changes nothing on screen: only a row whose wording changed is drawn again.
  useEffect(() => props.clock.subscribe((now) => setText(relativeTime(at, now, props.wording))), [props.at, props.clock]);
  return <time dateTime={props.at} title={props.wording.exact.format(at)}>{text}</time>;
}
