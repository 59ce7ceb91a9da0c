// The team's role rules (openapi.yaml's Access tag): who may change, remove and invite whom.
import { strict as assert } from 'node:assert';
import { invitationRefusal, removalRefusal, roleAtLeast, roleChangeRefusal, ROLES } from '../../src/domain/roles.js';
import type { MemberRole } from '../../src/domain/types.js';

describe('roles', () => {
  it('orders member < admin < owner', () => {
    assert.ok(roleAtLeast('owner', 'admin') && roleAtLeast('admin', 'admin') && roleAtLeast('member', 'member'));
    assert.ok(!roleAtLeast('member', 'admin') && !roleAtLeast('admin', 'owner'));
  });

  it('lets admins move people between member and admin, and only owners touch ownership', () => {
    const allowed = (actor: MemberRole, current: MemberRole, next: MemberRole) => roleChangeRefusal(actor, current, next) === null;
    for (const current of ROLES) for (const next of ROLES) {
      assert.equal(allowed('owner', current, next), true, `owner: ${current} -> ${next}`);
      assert.equal(allowed('member', current, next), false, `member: ${current} -> ${next}`);
      assert.equal(allowed('admin', current, next), current !== 'owner' && next !== 'owner', `admin: ${current} -> ${next}`);
    }
  });

  it('lets anyone leave, admins remove non-owners, and only owners remove owners', () => {
    for (const actor of ROLES) assert.equal(removalRefusal(actor, true, actor), null);
    assert.notEqual(removalRefusal('member', false, 'member'), null);
    assert.equal(removalRefusal('admin', false, 'member'), null);
    assert.equal(removalRefusal('admin', false, 'admin'), null);
    assert.notEqual(removalRefusal('admin', false, 'owner'), null);
    assert.equal(removalRefusal('owner', false, 'owner'), null);
  });

  it('lets admins invite members and admins, and only owners invite owners', () => {
    assert.notEqual(invitationRefusal('member', 'member'), null);
    assert.equal(invitationRefusal('admin', 'admin'), null);
    assert.notEqual(invitationRefusal('admin', 'owner'), null);
    assert.equal(invitationRefusal('owner', 'owner'), null);
  });
});
