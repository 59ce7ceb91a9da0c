// The team: members with their roles (change, remove, leave) and, for admins and owners, invitations (create with
// the one-time link shown once, list, revoke).
import { useState } from 'preact/hooks';
import { invitationRefusal, removalRefusal, roleChangeRefusal } from '../../domain/roles.js';
import { api, call, type Role, type Schemas } from '../api.js';
import { ConfirmDialog } from '../components/dialog.js';
import { DataTable, Resource } from '../components/resource.js';
import { OneTimeSecret } from '../components/copy.js';
import { Alert, Page, Status, When } from '../components/ui.js';
import { invalidate, useServerData } from '../server-state.js';
import { useNavigate } from '../router.js';
import { atLeast, useSession } from '../session.js';
import { useAction } from '../use-action.js';

const ROLES: Role[] = ['member', 'admin', 'owner'];

function MemberRow(props: { member: Schemas['Member']; myRole: Role; myEmail: string; onChanged: (notice: string) => void; onLeft: () => void }) {
  const { member, myRole } = props;
  const { error, run } = useAction();
  const [confirming, setConfirming] = useState(false);
  const isMe = member.email === props.myEmail;
  // The API's own rules (admins manage members and admins; only owners touch owners or make one), so what is offered is allowed.
  const roles = ROLES.filter((role) => roleChangeRefusal(myRole, member.role, role) === null);
  const mayChange = !isMe && roles.length > 0;
  const mayRemove = removalRefusal(myRole, isMe, member.role) === null;

  const changeRole = (role: Role) => run(async () => {
    await call(api.PUT('/v1/members/{email}', { params: { path: { email: member.email } }, body: { role } }));
    props.onChanged(`${member.email} is now ${role}.`);
  });
  const remove = () => run(async () => {
    setConfirming(false);
    await call(api.DELETE('/v1/members/{email}', { params: { path: { email: member.email } } }));
    if (isMe) props.onLeft();
    else props.onChanged(`Removed ${member.email}.`);
  });
  const action = isMe ? 'Leave workspace' : `Remove ${member.email}`;
  return (
    <tr>
      <td>{member.email}{isMe ? <span class="muted"> (you)</span> : null}{member.has_account ? null : <span class="muted"> (no password yet)</span>}</td>
      <td>
        {mayChange ? (
          <select aria-label={`Role of ${member.email}`} value={member.role} onChange={(event) => void changeRole(event.currentTarget.value as Role)}>
            {roles.map((role) => <option key={role} value={role}>{role}</option>)}
          </select>
        ) : member.role}
      </td>
      <td><When at={member.joined_at} /></td>
      <td>
        {mayRemove ? (
          <button type="button" class="danger" aria-label={action} onClick={() => setConfirming(true)}>{isMe ? 'Leave' : 'Remove'}</button>
        ) : null}
        {confirming ? (
          <ConfirmDialog title={`${action}?`} confirmLabel={isMe ? 'Yes, leave' : `Yes, remove ${member.email}`} onConfirm={() => void remove()} onCancel={() => setConfirming(false)}>
            <p>{isMe ? 'You lose access to this workspace.' : `${member.email} loses access to this workspace.`}</p>
          </ConfirmDialog>
        ) : null}
        <Alert error={error} />
      </td>
    </tr>
  );
}

function Invitations(props: { myRole: Role }) {
  const invitations = useServerData(['invitations'], () => call(api.GET('/v1/invitations')));
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('member');
  const [created, setCreated] = useState<Schemas['InvitationWithLink'] | null>(null);
  const { busy, error, run, submit } = useAction();

  const invite = submit(async () => {
    setCreated(await call(api.POST('/v1/invitations', { body: { email: email.trim(), role } })));
    setEmail('');
    invalidate(['invitations']);
  });
  const revoke = (invitation: Schemas['Invitation']) => run(async () => {
    await call(api.DELETE('/v1/invitations/{id}', { params: { path: { id: invitation.id } } }));
    invalidate(['invitations']);
  });

  return (
    <section aria-labelledby="invitations-heading" class="stack">
      <h2 id="invitations-heading">Invitations</h2>
      <form class="card inline-form" onSubmit={invite}>
        <div class="field">
          <label for="invite-email">Email</label>
          <input id="invite-email" type="email" required value={email} onInput={(event) => setEmail(event.currentTarget.value)} />
        </div>
        <div class="field">
          <label for="invite-role">Role</label>
          <select id="invite-role" value={role} onChange={(event) => setRole(event.currentTarget.value as Role)}>
            {ROLES.filter((option) => invitationRefusal(props.myRole, option) === null).map((option) => <option key={option} value={option}>{option}</option>)}
          </select>
        </div>
        <button type="submit" disabled={busy}>Invite</button>
      </form>
      <Alert error={error} />
      {created ? (
        <OneTimeSecret label={`Invitation link for ${created.email}`} value={created.url} note={`Send this link to ${created.email}; it works once and is shown only now. It expires ${new Date(created.expires_at).toLocaleString()}.`} />
      ) : null}
      <Resource resource={invitations} empty="No invitations.">
        {(list) => (
          <DataTable caption="Invitations" columns={['Email', 'Role', 'Status', 'Invited by', 'Expires', 'Actions']}>
            {list.map((invitation) => (
              <tr key={invitation.id}>
                <td>{invitation.email}</td>
                <td>{invitation.role}</td>
                <td>{invitation.status}</td>
                <td>{invitation.invited_by}</td>
                <td><When at={invitation.expires_at} /></td>
                <td>
                  {invitation.status === 'pending' ? (
                    <button type="button" class="danger" aria-label={`Revoke the invitation of ${invitation.email}`} onClick={() => void revoke(invitation)}>Revoke</button>
                  ) : null}
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </Resource>
    </section>
  );
}

export function Team() {
  const session = useSession();
  const navigate = useNavigate();
  const me = session.me!;
  const myRole = me.workspace.role ?? 'member';
  const members = useServerData(['members'], () => call(api.GET('/v1/members')));
  const [notice, setNotice] = useState<string | null>(null);
  const left = async () => {
    const next = await session.refresh();
    navigate(next ? '/inboxes' : '/sign-in', { replace: true });
  };
  return (
    <Page title="Team">
      <section aria-labelledby="members-heading" class="stack">
        <h2 id="members-heading">Members of {me.workspace.name}</h2>
        {notice ? <Status>{notice}</Status> : null}
        <Resource resource={members}>
          {(list) => (
            <DataTable caption="Members" columns={['Email', 'Role', 'Joined', 'Actions']}>
              {list.map((member) => (
                <MemberRow key={member.email} member={member} myRole={myRole} myEmail={me.person.email}
                  onChanged={(text) => { setNotice(text); invalidate(['members']); }} onLeft={() => void left()} />
              ))}
            </DataTable>
          )}
        </Resource>
      </section>
      {atLeast(myRole, 'admin') ? <Invitations myRole={myRole} /> : <p class="muted">Admins and owners invite people to this workspace.</p>}
    </Page>
  );
}
