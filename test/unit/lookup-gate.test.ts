// The lookup gate: at most its limit of lookups running, the rest in order as slots free, abandoned ones dropped.
import { strict as assert } from 'node:assert';
import type { LookupFunction } from 'node:net';
import { LookupGate } from '../../src/outbound/lookup-gate.js';

describe('LookupGate', () => {
  it('runs at most its limit of lookups at once and the rest in order, dropping those abandoned while they waited', () => {
    const started: string[] = [];
    const finishers = new Map<string, () => void>();
    const lookup = ((hostname: string, _options: unknown, callback: (error: null, address: string, family: number) => void) => {
      started.push(hostname);
      finishers.set(hostname, () => callback(null, '192.0.2.1', 4));
    }) as unknown as LookupFunction;
    const gate = new LookupGate(2);
    const answered: string[] = [];
    const abandoned = new Set<string>();
    for (const name of ['a', 'b', 'c', 'd', 'e']) {
      gate.wrap(lookup, () => abandoned.has(name))(name, {}, () => answered.push(name));
    }
    assert.deepEqual(started, ['a', 'b']);
    abandoned.add('c');
    finishers.get('a')!();
    assert.deepEqual(started, ['a', 'b', 'd'], 'c was abandoned while waiting, so d took the slot');
    finishers.get('b')!();
    finishers.get('d')!();
    assert.deepEqual(started, ['a', 'b', 'd', 'e']);
    finishers.get('e')!();
    assert.deepEqual(answered, ['a', 'b', 'd', 'e']);
    for (const name of ['f', 'g']) gate.wrap(lookup, () => false)(name, {}, () => undefined);
    assert.deepEqual(started.slice(-2), ['f', 'g'], 'both slots came back');
  });
});
