// The inbox's search form, always in the list's header: the q expression's box, and behind Filters the language's
// hint and the filter chips (from, to, subject, since). Applying it hands the search to the page, which keeps it in
// the URL.
import { useEffect, useState } from 'preact/hooks';
import { FILTER_NAMES, type MessageFilters } from '../../message-cache.js';

type FilterName = (typeof FILTER_NAMES)[number];

/** datetime-local's value (local time, no zone) for an ISO instant, and back. */
function toLocalInput(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

function fromLocalInput(value: string): string | undefined {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

export function SearchForm(props: { filters: MessageFilters; onSearch: (filters: MessageFilters) => void }) {
  const [q, setQ] = useState(props.filters.q ?? '');
  // The chips shown, with their draft values; a chip with an empty value is dropped when the search is applied.
  const [chips, setChips] = useState<Partial<Record<FilterName, string>>>(() => Object.fromEntries(
    FILTER_NAMES.filter((name) => props.filters[name] !== undefined).map((name) => [name, name === 'since' ? toLocalInput(props.filters.since!) : props.filters[name]!]),
  ));
  const [filtersOpen, setFiltersOpen] = useState(() => FILTER_NAMES.some((name) => props.filters[name] !== undefined));
  const filterKey = JSON.stringify(props.filters);
  useEffect(() => {
    // Back and forward change the URL's search: show it.
    setQ(props.filters.q ?? '');
    setChips(Object.fromEntries(FILTER_NAMES.filter((name) => props.filters[name] !== undefined)
      .map((name) => [name, name === 'since' ? toLocalInput(props.filters.since!) : props.filters[name]!])));
  }, [filterKey]);

  const submit = (event: Event) => {
    event.preventDefault();
    const next: MessageFilters = {};
    if (q.trim()) next.q = q.trim();
    for (const name of FILTER_NAMES) {
      const value = chips[name]?.trim();
      if (!value) continue;
      if (name === 'since') {
        const since = fromLocalInput(value);
        if (since) next.since = since;
      } else {
        next[name] = value;
      }
    }
    props.onSearch(next);
  };
  const setChip = (name: FilterName, value: string | undefined) => setChips((current) => {
    const next = { ...current };
    if (value === undefined) delete next[name];
    else next[name] = value;
    return next;
  });

  return (
    <form role="search" class="search" onSubmit={submit}>
      <div class="search-row">
        <label for="message-search" class="visually-hidden">Search</label>
        <input id="message-search" type="search" value={q} onInput={(event) => setQ(event.currentTarget.value)}
          placeholder={'Search: from:alice "password reset" -is:read'} aria-describedby="message-search-hint" />
        {/* Short on screen, whole for assistive technology: the visible word is part of the name. */}
        <button type="submit" aria-label="Apply search">Search</button>
        <button type="button" class="disclosure" aria-expanded={filtersOpen} aria-controls="search-filters" onClick={() => setFiltersOpen(!filtersOpen)}>
          Filters
        </button>
      </div>
      {/* The hint stays in the document as the box's description, shown with the chips. */}
      <div id="search-filters" class={filtersOpen ? 'search-filters stack' : 'search-filters closed'}>
        <p class="hint" id="message-search-hint">The q language: words, "phrases", from:, to:, cc:, addressed:, subject:, tag:, is:unread, has:attachment, has:code, after:2026-11-20, OR, -term.</p>
        <div class="chips" role="group" aria-label="Filters">
          {FILTER_NAMES.map((name) => chips[name] === undefined ? (
            <button key={name} type="button" class="chip" aria-label={`Add a ${name} filter`} onClick={() => setChip(name, '')}>+ {name}</button>
          ) : (
            <span key={name} class="chip chip-field">
              <label for={`filter-${name}`}>{name}<span class="visually-hidden"> filter</span></label>
              {name === 'since'
                ? <input id="filter-since" type="datetime-local" value={chips.since} onInput={(event) => setChip(name, event.currentTarget.value)} />
                : <input id={`filter-${name}`} type="text" value={chips[name]} onInput={(event) => setChip(name, event.currentTarget.value)} />}
              <button type="button" class="quiet chip-remove" aria-label={`Remove the ${name} filter`} onClick={() => setChip(name, undefined)}>×</button>
            </span>
          ))}
        </div>
      </div>
    </form>
  );
}
