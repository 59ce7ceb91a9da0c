// While a search is applied: how many of the inbox's messages it matches ("2 of 29 match"), counted by the server
// (GET /v1/inboxes/{id}/messages/count), and the button that clears it.
import { api, call } from '../../api.js';
import { inboxKey, type MessageFilters } from '../../message-cache.js';
import { useServerData } from '../../server-state.js';

export function SearchCount(props: { inboxId: string; filters: MessageFilters; total: number | null; onClear: () => void }) {
  const { inboxId, filters } = props;
  // Under the inbox's key: whatever reads the inbox's counts again (an arrival, a batch) counts the matches again too.
  const count = useServerData([...inboxKey(inboxId), 'matching', filters], () => call(api.GET('/v1/inboxes/{id}/messages/count', {
    params: { path: { id: inboxId }, query: filters },
  })));
  const matched = count.data?.messages;
  const text = count.error
    ? 'Could not count the matches.'
    : matched === undefined
      ? 'Counting the matches…'
      : `${matched.toLocaleString()} of ${props.total?.toLocaleString() ?? '?'} ${matched === 1 ? 'matches' : 'match'}`;
  return (
    <p class="search-count row">
      <span role="status">{text}</span>
      <button type="button" class="small quiet" onClick={props.onClear}>Clear search</button>
    </p>
  );
}
