// The server's wiring phases stand alone: the services built on a temporary data dir, and the HTTP app built on them,
// answer real requests in this process, with no SMTP listener and no background workers running.
import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { loadConfig } from '../../src/config.js';
import { buildServices, type Services } from '../../src/composition/services.js';
import { buildHttp } from '../../src/composition/http-app.js';
import { Teardown } from '../../src/composition/teardown.js';
import { ApiClient } from '../support/api-client.js';
import type { InboxWithCredentialsJson } from '../support/api-json.js';
import { expectOk } from '../support/envelope.js';
import { profileEnv } from '../support/profile.js';
import { tempDataDir } from '../support/server.js';

/** Ports no SMTP server listens on: the HTTP phase only shows them with each inbox's credentials. */
const SMTP_PORTS = { smtpPort: 2525, smtpsPort: 4650 };

describe('composition phases in-process (buildServices, buildHttp)', function () {
  this.timeout(60_000);
  const dataDir = tempDataDir();
  const teardown = new Teardown();
  let services: Services;
  let server: http.Server;
  let api: ApiClient;
  let workspaceId: string;

  before(async () => {
    const config = loadConfig({ ...process.env, SANDBOX_DATA_DIR: dataDir, SANDBOX_CONTENT_THREADS: '1', ...profileEnv(dataDir) });
    services = await buildServices(config, { log: pino({ level: 'silent' }), random: randomBytes }, teardown);
    const created = await services.workspaces.ensureDefaultWorkspace();
    assert.ok(created, 'a fresh data dir gets the default workspace');
    workspaceId = created.workspace.id;
    const { app } = buildHttp(config, services, SMTP_PORTS);
    server = http.createServer(app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    teardown.add(() => new Promise((resolve) => server.close(() => resolve())));
    api = new ApiClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, created.key.key);
  });

  after(async () => {
    await teardown.run();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('captures through the services what the HTTP app then lists, and creates inboxes over HTTP', async () => {
    const created = expectOk<InboxWithCredentialsJson>(await api.post('/v1/inboxes', { name: 'phases' }), 201, 'create inbox');
    assert.deepEqual(created.smtp.ports, [SMTP_PORTS.smtpPort, SMTP_PORTS.smtpsPort]);
    const inbox = await services.inboxes.find(workspaceId, created.id);
    assert.ok(inbox, 'the services find the inbox the HTTP app created');
    const raw = Buffer.from('From: app@example.test\r\nTo: user@example.test\r\nSubject: built in phases\r\n\r\nhello\r\n');
    const stored = await services.pipeline.ingest({ inbox, envelopeFrom: 'app@example.test', recipients: ['user@example.test'], raw, tls: false, channel: 'smtp' });
    const listed = expectOk<{ id: string; subject: string }[]>(await api.get(`/v1/inboxes/${inbox.id}/messages`), 200, 'list');
    assert.deepEqual(listed.map(({ id, subject }) => ({ id, subject })), [{ id: stored.id, subject: 'built in phases' }]);
  });
});
