// A row of toggle buttons of which one is on (a segmented control): a labelled group of buttons with aria-pressed,
// each reachable with Tab, so a choice of two or three takes one line rather than a fieldset of radio buttons.

export interface Segment<K extends string> {
  key: K;
  label: string;
  /** Said in a tooltip: what the short label stands for. */
  title?: string;
}

export function SegmentedControl<K extends string>(props: { label: string; segments: readonly Segment<K>[]; selected: K; onSelect: (key: K) => void }) {
  return (
    <div role="group" aria-label={props.label} class="segmented">
      {props.segments.map((segment) => (
        <button key={segment.key} type="button" aria-pressed={segment.key === props.selected} title={segment.title} onClick={() => props.onSelect(segment.key)}>
          {segment.label}
        </button>
      ))}
    </div>
  );
}
