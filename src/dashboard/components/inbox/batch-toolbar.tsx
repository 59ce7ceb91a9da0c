// The toolbar over an inbox's message list: what is selected, selecting all or none, and the batch actions on the
// selection (read, unread, add or remove a tag, delete).
import { useState } from 'preact/hooks';
import type { Schemas } from '../../api.js';
import type { BatchAction } from './batch-actions.js';
import type { MessageSelection } from './message-selection.js';

export function BatchToolbar(props: {
  selection: MessageSelection;
  /** A search is applied: "all" means all it matches. */
  filtered: boolean;
  /** The inbox's message count, for "All N messages are selected". */
  messageCount: number;
  tags: Schemas['Tag'][];
  onBatch: (action: Exclude<BatchAction, 'delete'>, tags?: string[]) => void;
  onDelete: () => void;
}) {
  const { selection, filtered } = props;
  const [tagName, setTagName] = useState('');
  const tagInput = tagName.trim().toLowerCase();
  const nothingSelected = selection.size === 0;
  const selectionText = selection.matching
    ? (filtered ? 'Every message matching the search is selected.' : `All ${props.messageCount.toLocaleString()} messages are selected.`)
    : `${(selection.size ?? 0).toLocaleString()} selected`;
  return (
    <div class="toolbar" role="toolbar" aria-label="Selected messages">
      <span class="selection-count" aria-live="polite">{selectionText}</span>
      <button type="button" class="quiet" onClick={selection.selectMatching}>
        {filtered ? 'Select all matching the search' : 'Select all'}
      </button>
      <button type="button" class="quiet" disabled={nothingSelected} onClick={selection.clear}>Clear selection</button>
      <button type="button" disabled={nothingSelected} onClick={() => props.onBatch('read')}>Mark read</button>
      <button type="button" disabled={nothingSelected} onClick={() => props.onBatch('unread')}>Mark unread</button>
      <span class="row tag-form">
        <input type="text" list="known-tags" aria-label="Tag name" placeholder="tag" value={tagName} onInput={(event) => setTagName(event.currentTarget.value)} />
        <datalist id="known-tags">{props.tags.map((tag) => <option key={tag.name} value={tag.name} />)}</datalist>
        <button type="button" disabled={nothingSelected || tagInput === ''} onClick={() => props.onBatch('tag', [tagInput])}>Add tag</button>
        <button type="button" disabled={nothingSelected || tagInput === ''} onClick={() => props.onBatch('untag', [tagInput])}>Remove tag</button>
      </span>
      <button type="button" class="danger" disabled={nothingSelected} onClick={props.onDelete}>Delete</button>
    </div>
  );
}
