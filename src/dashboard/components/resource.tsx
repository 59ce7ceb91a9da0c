// The block every list on the dashboard had written out: the read's error, "Loading…" until it answers, a sentence
// when the list is empty, else the list; and the table markup the lists share.
import type { ComponentChildren } from 'preact';
import type { ServerData } from '../server-state.js';
import { Alert, Loading } from './ui.js';

/** Shows `children(data)` once `resource` is loaded; before that the loading note, on failure its error. */
export function Resource<T>(props: {
  resource: Pick<ServerData<T>, 'data' | 'error'>;
  /** Shown instead of the children when the data is an empty list. */
  empty?: string;
  children: (data: T) => ComponentChildren;
}) {
  const { data, error } = props.resource;
  if (error) return <Alert error={error} />;
  if (data === null) return <Loading />;
  if (props.empty !== undefined && Array.isArray(data) && data.length === 0) return <p>{props.empty}</p>;
  return <>{props.children(data)}</>;
}

/** A table with a caption (for screen readers only unless `visibleCaption`) and one header row; the rows are the children. */
export function DataTable(props: { caption: string; columns: string[]; class?: string; visibleCaption?: boolean; children: ComponentChildren }) {
  return (
    <div class="table-wrap">
      <table class={props.class}>
        <caption class={props.visibleCaption ? undefined : 'visually-hidden'}>{props.caption}</caption>
        <thead><tr>{props.columns.map((column) => <th key={column} scope="col">{column}</th>)}</tr></thead>
        <tbody>{props.children}</tbody>
      </table>
    </div>
  );
}
