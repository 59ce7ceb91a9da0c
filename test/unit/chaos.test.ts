// The chaos roll (domain/chaos.ts) and its agreement with openapi.yaml: each stage's codes, and the enhanced code
// documented for each, are the table's.
import { strict as assert } from 'node:assert';
import { CHAOS_BEHAVIOUR_STAGES, CHAOS_CODES, CHAOS_ENHANCED_CODES, CHAOS_STAGES, chaosSettingsFrom, decideChaos, defaultChaos, MAX_CHAOS_DELAY_MS, type ChaosStage } from '../../src/domain/chaos.js';
import { loadOpenApi } from '../../src/http/openapi.js';

/** A source that returns the given draws in turn and counts them. */
function draws(...values: number[]) {
  const source = Object.assign(() => {
    source.used++;
    const value = values.shift();
    assert.ok(value !== undefined, 'drew more than expected');
    return value;
  }, { used: 0 });
  return source;
}

const ALMOST_ONE = 1 - Number.EPSILON;

describe('chaos roll', () => {
  it('disabled settings never fire and draw nothing, whatever the probabilities', () => {
    const settings = chaosSettingsFrom({ enabled: false, sender: { probability: 100, code: 550 }, delay: { stage: 'sender', probability: 100, ms: 10 } });
    const chance = draws();
    for (const stage of CHAOS_STAGES) assert.deepEqual(decideChaos(settings, stage, chance), { delayMs: 0, action: { kind: 'continue' } });
    assert.equal(chance.used, 0);
  });

  it('probability 100 fires even at the highest draw, 0 never fires and draws nothing', () => {
    for (const stage of CHAOS_STAGES) {
      const code = CHAOS_CODES[stage][0]!;
      const always = chaosSettingsFrom({ enabled: true, [stage]: { probability: 100, code, message: 'no' } });
      const decision = decideChaos(always, stage, draws(ALMOST_ONE));
      assert.deepEqual(decision.action, { kind: 'reply', reply: { code, enhanced: CHAOS_ENHANCED_CODES[code], message: 'no' }, closes: true }, stage);
      const never = chaosSettingsFrom({ enabled: true, [stage]: { probability: 0, code } });
      const chance = draws();
      assert.deepEqual(decideChaos(never, stage, chance).action, { kind: 'continue' });
      assert.equal(chance.used, 0);
    }
  });

  it('fires below the probability and not at or above it', () => {
    const settings = chaosSettingsFrom({ enabled: true, recipient: { probability: 50, code: 550 } });
    assert.equal(decideChaos(settings, 'recipient', draws(0.4999)).action.kind, 'reply');
    assert.equal(decideChaos(settings, 'recipient', draws(0.5)).action.kind, 'continue');
  });

  it('closes after the connection stage and after any 421, not after other refusals', () => {
    const settings = chaosSettingsFrom({ enabled: true, connection: { probability: 100, code: 554 }, sender: { probability: 100, code: 421 }, recipient: { probability: 100, code: 450 } });
    const closes = (stage: ChaosStage) => {
      const { action } = decideChaos(settings, stage, draws(0));
      return action.kind === 'reply' && action.closes;
    };
    assert.deepEqual([closes('connection'), closes('sender'), closes('recipient')], [true, true, false]);
  });

  it('rolls the delay, then the disconnect, then the trigger, each only at its own stage', () => {
    const settings = chaosSettingsFrom({
      enabled: true,
      data: { probability: 100, code: 554 },
      disconnect: { stage: 'data', probability: 50 },
      delay: { stage: 'data', probability: 100, ms: 1500 },
    });
    assert.deepEqual(decideChaos(settings, 'data', draws(0, 0.2)), { delayMs: 1500, action: { kind: 'disconnect' } });
    assert.equal(decideChaos(settings, 'data', draws(0, 0.7, 0)).action.kind, 'reply');
    const elsewhere = draws();
    assert.deepEqual(decideChaos(settings, 'sender', elsewhere), { delayMs: 0, action: { kind: 'continue' } });
    assert.equal(elsewhere.used, 0, 'nothing set for the sender stage, nothing drawn');
  });

  it('fills what the input leaves out with the defaults: disabled, probabilities 0, a text saying chaos refused', () => {
    const settings = chaosSettingsFrom({ enabled: true, sender: { probability: 10, code: 553 } });
    assert.deepEqual(settings.sender, { probability: 10, code: 553, message: 'Chaos: sender refused by this inbox\'s chaos settings' });
    assert.equal(settings.recipient.probability, 0);
    assert.equal(defaultChaos().enabled, false);
    for (const stage of CHAOS_STAGES) {
      assert.equal(defaultChaos()[stage].probability, 0);
      assert.ok(CHAOS_CODES[stage].includes(defaultChaos()[stage].code), `${stage}'s default code is one it allows`);
    }
  });
});

describe('chaos settings in openapi.yaml', () => {
  const schemas = (loadOpenApi().raw.components as { schemas: Record<string, { enum?: string[]; properties: Record<string, { enum: number[]; description: string; maximum: number }> }> }).schemas;

  it('the behaviour stages and the longest delay are the domain\'s', () => {
    assert.deepEqual(schemas.ChaosBehaviourStage!.enum, [...CHAOS_BEHAVIOUR_STAGES]);
    assert.equal(schemas.ChaosDelay!.properties.ms!.maximum, MAX_CHAOS_DELAY_MS);
  });

  const triggerSchema = (stage: ChaosStage) => schemas[`Chaos${stage[0]!.toUpperCase()}${stage.slice(1)}Trigger`]!;

  for (const stage of CHAOS_STAGES) {
    it(`${stage}: the codes allowed and the enhanced code documented for each are the table's`, () => {
      const { code } = triggerSchema(stage).properties;
      assert.deepEqual(code!.enum, [...CHAOS_CODES[stage]]);
      const documented = Object.fromEntries([...code!.description.matchAll(/\b(\d{3}) (\d\.\d\.\d)\b/g)].map((match) => [Number(match[1]), match[2]]));
      assert.deepEqual(documented, Object.fromEntries(CHAOS_CODES[stage].map((value) => [value, CHAOS_ENHANCED_CODES[value]])));
    });
  }
});
