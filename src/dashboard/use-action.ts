// What a user action (a form's submit, a row's button) needs beside its own work: the error it last threw, shown in an
// <Alert>, and for a form whether it is under way, to disable its submit button. Each page wrote the same lines for it
// (clear the error, set busy, try, keep what was thrown, clear busy); here they are once, so a page says only what its
// action does.
import { useState } from 'preact/hooks';

export interface Action {
  /** True while an action started by submit() runs; run() leaves it alone (row buttons are not disabled meanwhile). */
  busy: boolean;
  /** What the last action threw, or what fail() was given; null again when the next action starts. */
  error: unknown;
  /** Clears the error, awaits the action and keeps what it throws as `error`. Resolves to whether it succeeded. */
  run(action: () => Promise<unknown>): Promise<boolean>;
  /** A form's onSubmit: stops the browser's own submission, then runs the action with `busy` set. */
  submit(action: () => Promise<unknown>): (event: Event) => void;
  /** Shows an error found before anything is sent (a check in the browser), without running an action. */
  fail(error: unknown): void;
}

export function useAction(): Action {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const perform = async (action: () => Promise<unknown>, marksBusy: boolean): Promise<boolean> => {
    if (marksBusy) setBusy(true);
    setError(null);
    try {
      await action();
      return true;
    } catch (thrown) {
      setError(thrown);
      return false;
    } finally {
      if (marksBusy) setBusy(false);
    }
  };
  const run = (action: () => Promise<unknown>) => perform(action, false);
  const submit = (action: () => Promise<unknown>) => (event: Event) => {
    event.preventDefault();
    void perform(action, true);
  };
  return { busy, error, run, submit, fail: setError };
}
