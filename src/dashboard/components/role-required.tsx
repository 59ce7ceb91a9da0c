// What a page shows when the API answers 403 role_required: which role the page needs, instead of an error.
import { ApiError } from '../api.js';
import { Alert } from './ui.js';

export function isRoleRequired(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'role_required';
}

export function RoleRequired(props: { what: string; error: unknown; role?: string }) {
  return (
    <div class="card">
      <p class="lead">You need the {props.role ?? 'admin'} role to {props.what}.</p>
      <p class="muted">Ask an owner or admin of this workspace to change your role on the Team page.</p>
      <details>
        <summary>Details from the server</summary>
        <Alert error={props.error} />
      </details>
    </div>
  );
}
