// The bulk import's readers: the mbox splitter's edge cases (escapes, separators, line endings, limits, chunking)
// and which files of folders and Maildirs are read, skipped or refused: links, FIFOs and sockets are never followed
// or opened, and nothing outside the folder named is read, even when entries are swapped during the walk.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { readMailboxFiles, splitMbox, type MailboxItem, type MboxEntry } from '../../src/mime/mailbox-files.js';

async function split(mbox: string | Buffer, maxBytes = 1024 * 1024, chunkSize?: number): Promise<MboxEntry[]> {
  const bytes = Buffer.from(mbox);
  async function* chunks(): AsyncGenerator<Buffer> {
    const size = chunkSize ?? bytes.length;
    for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
  }
  const entries: MboxEntry[] = [];
  for await (const entry of splitMbox(chunks(), maxBytes)) entries.push(entry);
  return entries;
}

const texts = (entries: MboxEntry[]): string[] => entries.map((entry) => ('raw' in entry ? entry.raw.toString('latin1') : `<oversized ${entry.oversizedBytes}>`));

/** An mboxrd writer, as mail programs write: separator, escaped message, one blank line. */
const mboxrd = (messages: string[], newline = '\n'): string =>
  messages.map((message, i) => `From sender${i}@example.test Mon Nov  3 10:00:0${i % 10} 2026${newline}${message.replace(/^(>*From )/gm, '>$1')}${newline}`).join('');

describe('splitMbox', () => {
  it('returns each message without its separator line and the blank line before the next', async () => {
    const messages = ['Subject: one\n\nfirst body\n', 'Subject: two\n\nsecond body\n', 'Subject: three\n\nthird\n'];
    assert.deepEqual(texts(await split(mboxrd(messages))), messages);
  });

  it('numbers messages from 1 in file order', async () => {
    assert.deepEqual((await split(mboxrd(['A: 1\n', 'A: 2\n']))).map((entry) => entry.index), [1, 2]);
  });

  it('keeps CRLF line endings byte for byte', async () => {
    const messages = ['Subject: crlf\r\n\r\nline one\r\nline two\r\n', 'Subject: next\r\n\r\nbody\r\n'];
    assert.deepEqual(texts(await split(mboxrd(messages, '\r\n'))), messages);
  });

  it('takes one > off mboxrd-escaped From lines and leaves other > lines alone', async () => {
    const mbox = 'From a@b Mon Nov  3 10:00:00 2026\nSubject: x\n\n>From the start\n>>From quoted\n>Fromage\n> From spaced\n>>>From deep\n\n';
    assert.deepEqual(texts(await split(mbox)), ['Subject: x\n\nFrom the start\n>From quoted\n>Fromage\n> From spaced\n>>From deep\n']);
  });

  it('keeps an unescaped "From " line inside a paragraph as body text (only one after a blank line separates)', async () => {
    const mbox = 'From a@b Mon Nov  3 10:00:00 2026\nSubject: x\n\nWe wrote:\nFrom here on, nothing changes.\n\nFrom b@c Mon Nov  3 10:00:01 2026\nSubject: y\n\n';
    assert.deepEqual(texts(await split(mbox)), ['Subject: x\n\nWe wrote:\nFrom here on, nothing changes.\n', 'Subject: y\n']);
  });

  it('drops only the one blank line that belongs to the format, keeping the message\'s own trailing blank lines', async () => {
    const mbox = 'From a@b Mon Nov  3 10:00:00 2026\nSubject: x\n\nbody\n\n\n\nFrom b@c Mon Nov  3 10:00:01 2026\nSubject: y\n\nend\n\n\n';
    assert.deepEqual(texts(await split(mbox)), ['Subject: x\n\nbody\n\n\n', 'Subject: y\n\nend\n\n']);
  });

  it('keeps the last message whole when the file ends without a blank line or without a line break', async () => {
    assert.deepEqual(texts(await split('From a@b Mon Nov  3 10:00:00 2026\nSubject: x\n\nbody\n')), ['Subject: x\n\nbody\n']);
    assert.deepEqual(texts(await split('From a@b Mon Nov  3 10:00:00 2026\nSubject: x\n\nno newline')), ['Subject: x\n\nno newline']);
  });

  it('yields an empty message for two separators in a row or a separator with nothing after it', async () => {
    const mbox = 'From a@b Mon Nov  3 10:00:00 2026\nFrom b@c Mon Nov  3 10:00:01 2026\nSubject: y\n\nFrom c@d Mon Nov  3 10:00:02 2026\n';
    assert.deepEqual(texts(await split(mbox)), ['', 'Subject: y\n', '']);
  });

  it('makes bytes before the first separator a message of their own rather than dropping them', async () => {
    assert.deepEqual(texts(await split('Subject: stray\n\nbody\n\nFrom a@b Mon Nov  3 10:00:00 2026\nSubject: x\n')), ['Subject: stray\n\nbody\n', 'Subject: x\n']);
  });

  it('reports a message over the limit with its size and carries on with the next', async () => {
    const big = `Subject: big\n\n${'x'.repeat(99)}\n`;
    const entries = await split(mboxrd(['Subject: a\n', big, 'Subject: c\n']), 100);
    assert.deepEqual(texts(entries), ['Subject: a\n', `<oversized ${big.length}>`, 'Subject: c\n']);
  });

  it('counts a line longer than the limit without holding it, and still finds the next separator', async () => {
    const huge = 'y'.repeat(5000);
    const entries = await split(mboxrd(['Subject: a\n', `Subject: huge\n\n${huge}\n`, 'Subject: c\n']), 1000, 64);
    assert.deepEqual(texts(entries), ['Subject: a\n', `<oversized ${`Subject: huge\n\n${huge}\n`.length}>`, 'Subject: c\n']);
  });

  it('gives the same messages however the stream is chunked', async () => {
    const line = fc.oneof(
      fc.constantFrom('', 'From here', '>From there', '>>From x', 'From ', 'Fro', '>', 'Subject: s'),
      fc.string({ unit: fc.constantFrom('a', ' ', '>', 'F', 'r', 'o', 'm', '\r'), maxLength: 12 }),
    ).map((text) => text.replace(/\r/g, ''));
    const message = fc.array(line, { maxLength: 8 }).map((lines) => lines.map((text) => `${text}\n`).join(''));
    await fc.assert(
      fc.asyncProperty(fc.array(message, { minLength: 1, maxLength: 5 }), fc.integer({ min: 1, max: 40 }), async (messages, chunkSize) => {
        assert.deepEqual(texts(await split(mboxrd(messages), 1024 * 1024, chunkSize)), messages);
      }),
      { numRuns: 300 },
    );
  });
});

describe('readMailboxFiles', () => {
  let root: string;
  const write = (relative: string, content: string | Buffer): string => {
    const file = path.join(root, relative);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
    return file;
  };
  async function read(paths: string[], maxBytes = 1024 * 1024): Promise<MailboxItem[]> {
    const items: MailboxItem[] = [];
    for await (const item of readMailboxFiles(paths, maxBytes)) items.push(item);
    return items;
  }
  const shapes = (items: MailboxItem[]) =>
    items.map((item) => [path.relative(root, item.source), item.kind === 'message' ? item.raw.toString() : item.kind === 'oversized' ? item.size
      : item.kind === 'refused' ? `refused ${item.code}: ${item.reason}` : `${item.kind}: ${item.reason}`]);

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'mailbox-files-'));
  });
  afterEach(() => {
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('walks folders recursively in name order: .eml files and mbox files read, other files skipped', async () => {
    write('b.eml', 'Subject: b\n');
    write('a.EML', 'Subject: a\n');
    write('sub/c.eml', 'Subject: c\n');
    write('Archive', mboxrd(['Subject: m1\n', 'Subject: m2\n']));
    write('notes.txt', 'not mail\n');
    assert.deepEqual(shapes(await read([root])), [
      ['Archive#1', 'Subject: m1\n'],
      ['Archive#2', 'Subject: m2\n'],
      ['a.EML', 'Subject: a\n'],
      ['b.eml', 'Subject: b\n'],
      ['notes.txt', 'skipped: neither .eml nor an mbox (no "From " first line)'],
      ['sub/c.eml', 'Subject: c\n'],
    ]);
  });

  it('reads a file named on its own whatever its name: an mbox if it opens with a From line, else one message', async () => {
    const single = write('message', 'Subject: one\n');
    const mbox = write('export.eml', mboxrd(['Subject: m1\n']));
    assert.deepEqual(shapes(await read([single, mbox])), [['message', 'Subject: one\n'], ['export.eml#1', 'Subject: m1\n']]);
  });

  it('reads a Maildir\'s new/ and cur/ together in name order, never tmp/ or its bookkeeping files, and walks its subfolders', async () => {
    write('Maildir/cur/1700000002.M2.host:2,S', 'Subject: second\n');
    write('Maildir/new/1700000003.M3.host', 'Subject: third\n');
    write('Maildir/cur/1700000001.M1.host:2,', 'Subject: first\n');
    write('Maildir/tmp/1700000004.M4.host', 'Subject: being delivered\n');
    write('Maildir/dovecot-uidlist', '3 V1 N4\n');
    write('Maildir/.Sent/cur/1700000005.M5.host:2,S', 'Subject: sent\n');
    assert.deepEqual(shapes(await read([path.join(root, 'Maildir')])), [
      ['Maildir/cur/1700000001.M1.host:2,', 'Subject: first\n'],
      ['Maildir/cur/1700000002.M2.host:2,S', 'Subject: second\n'],
      ['Maildir/new/1700000003.M3.host', 'Subject: third\n'],
      ['Maildir/.Sent/cur/1700000005.M5.host:2,S', 'Subject: sent\n'],
    ]);
  });

  it('reports an .eml over the limit by its size without reading it, and a missing path as unreadable', async () => {
    write('big.eml', `Subject: big\n\n${'z'.repeat(200)}\n`);
    write('small.eml', 'Subject: small\n');
    assert.deepEqual(shapes(await read([root, path.join(root, 'missing.eml')], 100)), [
      ['big.eml', 215],
      ['small.eml', 'Subject: small\n'],
      ['missing.eml', 'unreadable: ENOENT'],
    ]);
  });

  describe('hostile folders', () => {
    let outside: string;
    beforeEach(() => {
      outside = fs.mkdtempSync(path.join(os.tmpdir(), 'mailbox-outside-'));
      fs.writeFileSync(path.join(outside, 'passwd'), 'root:x:0:0:root:/root:/bin/bash\n');
      fs.writeFileSync(path.join(outside, 'stolen.eml'), 'Subject: stolen\n');
    });
    afterEach(() => {
      fs.rmSync(outside, { recursive: true, force: true });
    });
    const link = (relative: string, target: string) => {
      fs.mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
      fs.symlinkSync(target, path.join(root, relative));
    };

    it('refuses symbolic links (to files and folders, inside or out), FIFOs and sockets by reason, reading none of them and never blocking', async () => {
      write('real.eml', 'Subject: real\n');
      link('passwd.eml', path.join(outside, 'passwd'));
      link('again.eml', path.join(root, 'real.eml'));
      link('linked', outside);
      link('Maildir/cur/1700000001.M1.host:2,S', path.join(outside, 'stolen.eml'));
      write('Maildir/new/1700000002.M2.host', 'Subject: delivered\n');
      assert.equal(spawnSync('mkfifo', [path.join(root, 'pipe.eml')]).status, 0, 'mkfifo');
      const socket = net.createServer();
      await new Promise<void>((resolve) => socket.listen(path.join(root, 'sock'), resolve));
      try {
        const items = await read([root]);
        assert.deepEqual(shapes(items), [
          ['Maildir/cur/1700000001.M1.host:2,S', 'refused symbolic_link: a symbolic link (not followed)'],
          ['Maildir/new/1700000002.M2.host', 'Subject: delivered\n'],
          ['again.eml', 'refused symbolic_link: a symbolic link (not followed)'],
          ['linked', 'refused symbolic_link: a symbolic link (not followed)'],
          ['passwd.eml', 'refused symbolic_link: a symbolic link (not followed)'],
          ['pipe.eml', 'refused not_a_regular_file: not a regular file (a FIFO)'],
          ['real.eml', 'Subject: real\n'],
          ['sock', 'refused not_a_regular_file: not a regular file (a socket)'],
        ]);
        assert.ok(!items.some((item) => item.kind === 'message' && /root:x|stolen/.test(item.raw.toString())), 'nothing from outside was read');
      } finally {
        await new Promise((resolve) => socket.close(resolve));
      }
    });

    it('refuses a link or a FIFO named on its own (a shell glob names whatever a folder holds)', async () => {
      link('glob/passwd.eml', path.join(outside, 'passwd'));
      assert.equal(spawnSync('mkfifo', [path.join(root, 'glob/fifo.eml')]).status, 0, 'mkfifo');
      write('glob/ok.eml', 'Subject: ok\n');
      assert.deepEqual(shapes(await read(['fifo.eml', 'ok.eml', 'passwd.eml'].map((name) => path.join(root, 'glob', name)))), [
        ['glob/fifo.eml', 'refused not_a_regular_file: not a regular file (a FIFO)'],
        ['glob/ok.eml', 'Subject: ok\n'],
        ['glob/passwd.eml', 'refused symbolic_link: a symbolic link (not followed)'],
      ]);
    });

    it('refuses a file or a folder swapped for a link after its folder was listed, reading nothing outside', async () => {
      // Name order: a/ is walked (and its message handed over) before b.eml and c/ are looked at.
      write('a/first.eml', 'Subject: first\n');
      write('b.eml', 'Subject: b\n');
      write('c/inner.eml', 'Subject: inner\n');
      const walk = readMailboxFiles([root], 1024 * 1024);
      const first = await walk.next();
      assert.equal(first.done, false);
      assert.deepEqual(shapes([first.value as MailboxItem]), [['a/first.eml', 'Subject: first\n']]);
      fs.rmSync(path.join(root, 'b.eml'));
      fs.symlinkSync(path.join(outside, 'passwd'), path.join(root, 'b.eml'));
      fs.rmSync(path.join(root, 'c'), { recursive: true });
      fs.symlinkSync(outside, path.join(root, 'c'));
      const rest: MailboxItem[] = [];
      for await (const item of walk) rest.push(item);
      assert.deepEqual(shapes(rest), [
        ['b.eml', 'refused symbolic_link: a symbolic link (not followed)'],
        ['c', `refused outside_folder: not inside ${fs.realpathSync(root)} once links are resolved`],
      ]);
    });
  });
});
