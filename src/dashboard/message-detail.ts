// One message as the dashboard reads it (GET /v1/messages/{id}), under one key. The viewer shows it; the list starts the
// read as a row is pressed, so the request is under way before the click that opens the message and the render after it.
import { api, call } from './api.js';
import { queryClient } from './server-state.js';

export const messageDetailKey = (id: string) => ['message', id];

export const readMessageDetail = (id: string) => call(api.GET('/v1/messages/{id}', { params: { path: { id } } }));

/**
 * How long a read begun by pressing a row stays fresh: long enough for the click that follows (a press lasts 50 to
 * 200 ms) and for the viewer it opens to show that answer instead of asking again; short enough that a row pressed and
 * let go elsewhere is read afresh when it is opened later.
 */
export const PRESSED_READ_FRESH_MS = 2000;

/** Starts reading the message unless a read of it is under way or fresh; the viewer that opens it takes that answer. */
export function startReadingMessage(id: string): void {
  void queryClient.prefetchQuery({ queryKey: messageDetailKey(id), queryFn: () => readMessageDetail(id), staleTime: PRESSED_READ_FRESH_MS, gcTime: PRESSED_READ_FRESH_MS });
}
