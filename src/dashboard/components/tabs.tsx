// A WAI-ARIA tablist (https://www.w3.org/WAI/ARIA/apg/patterns/tabs/): one tab in the Tab order, arrow keys, Home
// and End move between tabs and select them. The selected tab is the caller's state (the viewer keeps it in the URL),
// so this only renders and reports choices. A few lines of markup did not justify a headless-UI dependency (those
// libraries target React and would need preact/compat).
import type { ComponentChildren } from 'preact';
import { useRef } from 'preact/hooks';

export interface TabSpec<K extends string> {
  key: K;
  label: string;
}

export function Tabs<K extends string>(props: {
  label: string;
  idPrefix: string;
  tabs: TabSpec<K>[];
  selected: K;
  onSelect: (key: K) => void;
  /** What sits in the tab row after the tabs (controls of the open panel), wrapping below them where there is no room. */
  aside?: ComponentChildren;
  children: ComponentChildren;
}) {
  const list = useRef<HTMLDivElement>(null);
  const index = Math.max(0, props.tabs.findIndex((tab) => tab.key === props.selected));
  const choose = (next: number) => {
    const tab = props.tabs[(next + props.tabs.length) % props.tabs.length]!;
    props.onSelect(tab.key);
    list.current?.querySelector<HTMLButtonElement>(`#${props.idPrefix}-tab-${tab.key}`)?.focus();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    const moves: Record<string, number> = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: props.tabs.length - 1 };
    const next = moves[event.key];
    if (next === undefined) return;
    event.preventDefault();
    choose(next);
  };
  return (
    <div class="tabs">
      <div class="tab-row">
        <div role="tablist" aria-label={props.label} class="tablist" ref={list} onKeyDown={onKeyDown}>
          {props.tabs.map((tab) => {
            const selected = tab.key === props.selected;
            return (
              <button
                key={tab.key}
                type="button"
                role="tab"
                id={`${props.idPrefix}-tab-${tab.key}`}
                aria-selected={selected}
                aria-controls={`${props.idPrefix}-panel`}
                tabIndex={selected ? 0 : -1}
                onClick={() => props.onSelect(tab.key)}
              >
                {tab.label}
              </button>
            );
          })}
        </div>
        {props.aside}
      </div>
      <div role="tabpanel" id={`${props.idPrefix}-panel`} aria-labelledby={`${props.idPrefix}-tab-${props.selected}`} tabIndex={0} class="tabpanel">
        {props.children}
      </div>
    </div>
  );
}
