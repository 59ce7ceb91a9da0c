// Small building blocks every page uses: links that route in the page, the page frame, alerts, fields, dates.
import type { ComponentChildren, JSX } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { ApiError } from '../api.js';
import { href } from '../router.js';
import { setPageTitle } from '../unread-badge.js';

/** A link to a route path; preact-iso turns a click on it into in-page navigation. */
export function Link(props: { to: string; children: ComponentChildren; current?: boolean; class?: string; label?: string }) {
  return (
    <a href={href(props.to)} class={props.class} aria-label={props.label} aria-current={props.current ? 'page' : undefined}>
      {props.children}
    </a>
  );
}

/** A page: its one h1, the document title, and focus on the heading when the page changes (for screen readers). */
export function Page(props: { title: string; children: ComponentChildren }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    setPageTitle(props.title);
    if (document.activeElement === document.body || document.activeElement === null) heading.current?.focus({ preventScroll: true });
  }, [props.title]);
  return (
    <>
      <h1 tabIndex={-1} ref={heading}>{props.title}</h1>
      {props.children}
    </>
  );
}

export function describeError(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error) return `Something went wrong: ${error.message}`;
  return 'Something went wrong.';
}

export function Alert(props: { error: unknown }) {
  if (props.error === null || props.error === undefined) return null;
  return <p role="alert" class="alert">{describeError(props.error)}</p>;
}

export function Status(props: { children: ComponentChildren }) {
  return <p role="status" class="status">{props.children}</p>;
}

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function When(props: { at: string | null; never?: string }) {
  if (props.at === null) return <>{props.never ?? 'never'}</>;
  return <time dateTime={props.at}>{dateFormat.format(new Date(props.at))}</time>;
}

export function Field(props: { label: string; children: (id: string) => JSX.Element; hint?: string }) {
  const id = `field-${props.label.replace(/\W+/g, '-').toLowerCase()}`;
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      {props.children(id)}
      {props.hint ? <p class="hint" id={`${id}-hint`}>{props.hint}</p> : null}
    </div>
  );
}

export function Loading() {
  return <p class="muted" aria-live="polite">Loading…</p>;
}
