// A paperclip: a message's attachments. With a title it is an image named so (a list row's mark: the message has
// attachments); without, a decoration beside words that say it (an attachment's chip).
export function Paperclip(props: { title?: string }) {
  const named = props.title !== undefined;
  return (
    <svg class="paperclip" role={named ? 'img' : undefined} aria-hidden={named ? undefined : 'true'} viewBox="0 0 16 16" width="14" height="14"
      fill="none" stroke="currentColor" stroke-width="1.5" stroke-linecap="round" stroke-linejoin="round">
      {named ? <title>{props.title}</title> : null}
      <path d="M13 7.5 8 12.5a3 3 0 0 1-4.3-4.2l5.4-5.4a2 2 0 0 1 2.8 2.8L6.6 11a1 1 0 0 1-1.4-1.4L9.8 5" />
    </svg>
  );
}
