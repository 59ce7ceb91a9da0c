// End to end, both profiles (issue 35): an SVG whose embedded PNG decodes to 1.1 GB is refused without decoding, as an
// SVG or dressed as a PNG; a raster image whose decode passes the thumbnail memory limit is stopped with its process,
// whose memory never was the server's; each refusal is kept beside the message, so retries, after a restart too, are
// answered from it without decoding again. A decode stopped at the time limit is refused for a while only (the load
// of the moment may have caused it): retries meanwhile decode nothing, and nothing is kept beside the message.
import { strict as assert } from 'node:assert';
import sharp from 'sharp';
import { ApiClient } from '../support/api-client.js';
import { expectError } from '../support/envelope.js';
import { progressiveJpeg, svgWithEmbeddedPng } from '../support/hostile-images.js';
import { createInbox, uniqueName } from '../support/inboxes.js';
import { detailOf } from '../support/messages.js';
import { childProcesses, peakResidentMb } from '../support/processes.js';
import { testProfile } from '../support/profile.js';
import { parseExposition } from '../support/prometheus.js';
import { pollUntil } from '../support/poll.js';
import { startServer, type StartedServer } from '../support/server.js';
import { credentialsOf, sendMails, type SmtpCredentials } from '../support/smtp.js';

/** Low enough that a 40-megapixel progressive JPEG (240 MB of coefficients) passes it. */
const THUMBNAIL_MEMORY_MB = 200;
/** What the server itself may grow by while it is attacked: a decode of either image would take far more. */
const SERVER_GROWTH_MB = 150;

/** Thumbnail processes started since the server started, as /metrics says. */
async function thumbnailsStarted(api: ApiClient): Promise<number> {
  const response = await api.get('/metrics');
  assert.equal(response.status, 200);
  const sample = parseExposition(response.bytes.toString())
    .find(({ name, labels }) => name === 'mail_sandbox_content_tasks_started_total' && labels.kind === 'thumbnail');
  return sample?.value ?? 0;
}

describe(`thumbnail bombs (${testProfile()} profile)`, function () {
  this.timeout(300_000);
  let server: StartedServer;
  let key: string;
  let api: ApiClient;
  let smtp: SmtpCredentials;

  const start = async () => {
    server = await startServer({ dataDir: server?.dataDir, env: { SANDBOX_THUMBNAIL_MEMORY_MB: String(THUMBNAIL_MEMORY_MB) } });
    api = new ApiClient(server.httpUrl, key);
    // The restarted server listens on other ports.
    smtp = { ...smtp, port: server.smtpPort };
  };
  const serverPid = () => server.process.pid!;
  const thumbnailProcesses = () => childProcesses(serverPid(), 'thumbnail-child');

  before(async () => {
    server = await startServer({ env: { SANDBOX_THUMBNAIL_MEMORY_MB: String(THUMBNAIL_MEMORY_MB) } });
    key = server.defaultKey!;
    api = new ApiClient(server.httpUrl, key);
    smtp = credentialsOf(await createInbox(api, uniqueName('thumbs')));
  });

  after(async () => {
    await server?.stop();
  });

  it('refuses an SVG that embeds a 10,000 × 10,000 PNG, as an SVG or dressed as a PNG, without decoding it', async () => {
    const svg = await svgWithEmbeddedPng(10_000);
    const [id] = await sendMails(smtp, [{
      from: 'app@thumbs.test', to: 'me@thumbs.test', subject: 'svg bomb', text: 'see images',
      attachments: [{ filename: 'bomb.svg', content: svg, contentType: 'image/svg+xml' }, { filename: 'bomb.png', content: svg, contentType: 'image/png' }],
    }]);
    const detail = await detailOf(api, id!);
    assert.equal(detail.attachments[0]!.thumb_url, undefined, 'an SVG is offered no thumbnail');
    assert.ok(detail.attachments[1]!.thumb_url, 'an attachment declared a PNG is offered one');
    const started = await thumbnailsStarted(api);
    const peak = peakResidentMb(serverPid());
    // The attack: four requests at once for each, from one tenant.
    const [asSvg, asPng] = await Promise.all([0, 1].map((index) => Promise.all(Array.from({ length: 4 }, () => api.get(`/v1/messages/${id}/attachments/${index}/thumb`)))));
    for (const response of asSvg!) {
      assert.match(expectError(response, 400, 'not_an_image', 'the SVG'), /attachment 0 is image\/svg\+xml; only PNG, JPEG, GIF or WebP images have thumbnails/);
    }
    for (const response of asPng!) {
      assert.match(expectError(response, 400, 'not_an_image', 'the SVG declared a PNG'),
        /attachment 1 \(image\/png\) has no thumbnail: it is not a PNG, JPEG, GIF or WebP image \(by its bytes, whatever its declared type\)/);
    }
    expectError(await api.withKey(null).get(detail.files.thumbnails[0]!), 400, 'not_an_image', 'by signed link');
    assert.equal(await thumbnailsStarted(api), started, 'no thumbnail process was started');
    assert.deepEqual(thumbnailProcesses(), []);
    const grown = peakResidentMb(serverPid()) - peak;
    assert.ok(grown < SERVER_GROWTH_MB, `the server's peak resident memory grew by ${grown} MB`);
  });

  it('stops a decode past the memory limit with its process, and answers retries from the kept refusal, after a restart too', async () => {
    const jpeg = await progressiveJpeg(6300);
    const png = await sharp({ create: { width: 800, height: 600, channels: 3, background: { r: 0, g: 120, b: 240 } } }).png().toBuffer();
    const [id] = await sendMails(smtp, [{
      from: 'app@thumbs.test', to: 'me@thumbs.test', subject: 'progressive bomb', text: 'see images',
      attachments: [{ filename: 'big.jpg', content: jpeg, contentType: 'image/jpeg' }, { filename: 'small.png', content: png, contentType: 'image/png' }],
    }]);
    const detail = await detailOf(api, id!);
    const thumbUrl = detail.attachments[0]!.thumb_url!;
    const signedUrl = detail.files.thumbnails[0]!;
    const refusal = new RegExp(`attachment 0 \\(image/jpeg\\) has no thumbnail: it needs more than the ${THUMBNAIL_MEMORY_MB} MB of memory a thumbnail may use \\(SANDBOX_THUMBNAIL_MEMORY_MB\\)`);
    const started = await thumbnailsStarted(api);
    const peak = peakResidentMb(serverPid());

    const responses = await Promise.all(Array.from({ length: 4 }, () => api.get(thumbUrl)));
    const messages = responses.map((response) => expectError(response, 400, 'not_an_image', 'a 40-megapixel progressive JPEG'));
    for (const message of messages) assert.match(message, refusal);
    assert.equal(await thumbnailsStarted(api), started + 1, 'the four requests waited for one decode');
    assert.deepEqual(thumbnailProcesses(), [], 'the stopped decode\'s process is gone, and its memory with it');
    const grown = peakResidentMb(serverPid()) - peak;
    assert.ok(grown < SERVER_GROWTH_MB, `the server's peak resident memory grew by ${grown} MB`);

    assert.equal(expectError(await api.get(thumbUrl), 400, 'not_an_image', 'a retry'), messages[0]);
    assert.equal(expectError(await api.withKey(null).get(signedUrl), 400, 'not_an_image', 'a retry by signed link'), messages[0]);
    assert.equal(await thumbnailsStarted(api), started + 1, 'the retries were answered from the kept refusal');
    const small = await api.get(detail.attachments[1]!.thumb_url!);
    assert.equal(small.status, 200, 'an everyday image gets its thumbnail within the same limit');
    assert.equal(await sharp(small.bytes).metadata().then(({ width }) => width), 240);

    await server.stop();
    await start();
    assert.equal(expectError(await api.get(thumbUrl), 400, 'not_an_image', 'a retry after a restart'), messages[0]);
    assert.equal(await thumbnailsStarted(api), 0, 'the refusal kept in storage answered, with nothing decoded');
  });

  it('refuses a decode stopped at the time limit for a while only: retries decode nothing, and after a restart it is made', async () => {
    const png = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: { r: 200, g: 40, b: 40 } } }).png().toBuffer();
    const [id] = await sendMails(smtp, [{
      from: 'app@thumbs.test', to: 'me@thumbs.test', subject: 'slow decode', text: 'see image',
      attachments: [{ filename: 'photo.png', content: png, contentType: 'image/png' }],
    }]);
    const thumbUrl = (await detailOf(api, id!)).attachments[0]!.thumb_url!;
    const started = await thumbnailsStarted(api);
    // A decode that cannot finish, as on a machine too loaded to give it its time: its process is stopped at birth.
    const asked = api.get(thumbUrl);
    await pollUntil(async () => thumbnailProcesses().length > 0, 10_000, 'the thumbnail\'s process', 2);
    for (const pid of thumbnailProcesses()) process.kill(pid, 'SIGSTOP');
    const refused = expectError(await asked, 400, 'not_an_image', 'a decode past the time limit');
    assert.match(refused, /attachment 0 \(image\/png\) has no thumbnail: it was not made within 5 s \(the time limit per task, SANDBOX_PARSE_TIMEOUT_MS\): its decode was stopped; it is tried again after 10 minutes/);
    assert.equal(expectError(await api.get(thumbUrl), 400, 'not_an_image', 'a retry'), refused);
    assert.equal(await thumbnailsStarted(api), started + 1, 'the retry was answered from memory, with nothing decoded');

    await server.stop();
    await start();
    const made = await api.get(thumbUrl);
    assert.equal(made.status, 200, 'after a restart the image is decoded again, and this time in time');
    assert.equal(await sharp(made.bytes).metadata().then(({ width }) => width), 240);
    assert.equal(await thumbnailsStarted(api), 1);
  });
});
