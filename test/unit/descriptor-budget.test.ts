// The connection caps against the open-file limit: kept when they fit with the headroom, shrunk in proportion when not.
import { strict as assert } from 'node:assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config.js';
import { DESCRIPTOR_HEADROOM, fitConnectionLimits, openFileLimit } from '../../src/services/operations/descriptor-budget.js';

describe('descriptor budget', () => {
  const { connections } = loadConfig({});

  it('reads the soft open-file limit from a limits file, and none when it is unlimited or unreadable', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'limits-'));
    const file = path.join(dir, 'limits');
    fs.writeFileSync(file, 'Limit                     Soft Limit           Hard Limit           Units\nMax open files            4096                 524288               files\n');
    assert.equal(openFileLimit(file), 4096);
    fs.writeFileSync(file, 'Max open files            unlimited            unlimited            files\n');
    assert.equal(openFileLimit(file), null);
    assert.equal(openFileLimit(path.join(dir, 'absent')), null);
    assert.equal(typeof openFileLimit(), 'number', 'this machine\'s /proc/self/limits names a limit');
  });

  it('keeps the configured caps when they fit below the limit with the headroom', () => {
    assert.deepEqual(fitConnectionLimits(connections, 3000 + DESCRIPTOR_HEADROOM), { limits: connections, shrunk: false });
    assert.deepEqual(fitConnectionLimits(connections, null), { limits: connections, shrunk: false });
  });

  it('shrinks both caps in proportion, and the per-address and unauthenticated caps with them, when they do not', () => {
    const { limits, shrunk } = fitConnectionLimits(connections, 1024);
    assert.equal(shrunk, true);
    assert.ok(limits.smtpMax + limits.httpMax <= 1024 - DESCRIPTOR_HEADROOM);
    assert.equal(limits.smtpMax, 256);
    assert.equal(limits.httpMax, 512);
    assert.equal(limits.smtpPerAddress, 100);
    assert.equal(limits.httpPerAddress, 256);
    assert.deepEqual([limits.smtpMaxUnauthenticated, limits.httpMaxUnauthenticated], [192, 384], 'the unauthenticated shares keep their three quarters');
    const tight = fitConnectionLimits(connections, 300).limits;
    assert.ok(tight.smtpPerAddress <= tight.smtpMax && tight.httpPerAddress <= tight.httpMax);
    assert.ok(tight.smtpMaxUnauthenticated <= tight.smtpMax && tight.httpMaxUnauthenticated <= tight.httpMax);
    assert.ok(tight.smtpUnauthenticatedPerAddress <= Math.min(tight.smtpPerAddress, tight.smtpMaxUnauthenticated));
    assert.ok(tight.httpUnauthenticatedPerAddress <= Math.min(tight.httpPerAddress, tight.httpMaxUnauthenticated));
  });
});
