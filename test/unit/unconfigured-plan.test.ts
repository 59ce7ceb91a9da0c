// A workspace on a plan the configuration does not define: what it is allowed, and how /readyz comes to say so.
import { strict as assert } from 'node:assert';
import { loadConfig } from '../../src/config.js';
import { WorkspaceService } from '../../src/services/accounts/workspaces.js';
import { cachedWarnings, planWarnings, type ReadinessWarning } from '../../src/services/operations/readiness.js';
import type { CaptureStore, MetadataStore } from '../../src/storage/ports.js';
import type { Workspace } from '../../src/domain/types.js';

const onPlan = (planName: string): Workspace => ({ id: 'ws_1', name: 'one', planName, createdAt: new Date() });

describe('a plan the configuration does not define', () => {
  // planFor reads only the plans; the stores are never reached.
  const service = (plansJson: string) => new WorkspaceService({} as MetadataStore, {} as CaptureStore, loadConfig({ SANDBOX_PLANS: plansJson }).plans);

  it('keeps all mail and gets, limit by limit, the strictest any configured plan sets', () => {
    // A generous "free" and a stricter plan of another name: the fallback follows the limits, not the name.
    const workspaces = service(JSON.stringify({
      free: { monthly_limit: 100_000, retention_days: 1, member_limit: null, requests_per_second: 500 },
      trial: { monthly_limit: 50, retention_days: 3, member_limit: 2, inbox_limit: 1, webhook_limit: null, requests_per_second: 2, tag_rule_limit: 4 },
    }));
    assert.deepEqual(workspaces.planFor(onPlan('gold')), {
      name: 'gold',
      configured: false,
      monthlyLimit: 50,
      retentionDays: null,
      memberLimit: 2,
      inboxLimit: 1,
      webhookLimit: 1,
      requestsPerSecond: 2,
      tagRuleLimit: 4,
    });
    assert.equal(workspaces.planFor(onPlan('free')).retentionDays, 1, 'a configured plan is itself');
    assert.equal(workspaces.planFor(onPlan('free')).configured, true);
  });

  it('is unlimited only where every configured plan is', () => {
    const unlimitedOnly = service(JSON.stringify({ free: { monthly_limit: null, member_limit: null, inbox_limit: null, webhook_limit: null, requests_per_second: null }, team: { monthly_limit: null } }));
    const plan = unlimitedOnly.planFor(onPlan('gone'));
    assert.equal(plan.monthlyLimit, null);
    assert.equal(plan.memberLimit, 20, "team's member limit is the only one set");
  });

  it('is told in /readyz by plan and count, never by workspace id', () => {
    const [warning] = planWarnings([{ plan: 'gold', workspaceIds: ['ws_a', 'ws_b'] }]);
    assert.equal(warning!.code, 'plan_not_configured');
    assert.match(warning!.message, /^2 workspace\(s\) are on plan 'gold', which SANDBOX_PLANS does not define: their mail is kept/);
    assert.ok(!warning!.message.includes('ws_a'));
  });

  it('is looked up at most once per period however often /readyz is asked, and a failed lookup is tried again', async () => {
    let clock = 0;
    let lookups = 0;
    let fail = false;
    const found: ReadinessWarning[] = [{ code: 'plan_not_configured', message: 'x' }];
    const warnings = cachedWarnings(async () => {
      lookups++;
      if (fail) throw new Error('storage down');
      return found;
    }, 60_000, () => clock);
    await Promise.all(Array.from({ length: 50 }, () => warnings()));
    assert.equal(lookups, 1);
    clock = 59_999;
    assert.deepEqual(await warnings(), found);
    assert.equal(lookups, 1);
    clock = 60_000;
    fail = true;
    await assert.rejects(warnings(), /storage down/);
    fail = false;
    assert.deepEqual(await warnings(), found, 'the failure was not kept');
    assert.equal(lookups, 3);
  });
});
