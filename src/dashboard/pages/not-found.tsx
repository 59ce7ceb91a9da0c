// A dashboard path that names no page.
import { Link, Page } from '../components/ui.js';

export function NotFound() {
  return (
    <Page title="Page not found">
      <p>There is no page here. <Link to="/inboxes">Go to the inboxes</Link>.</p>
    </Page>
  );
}
