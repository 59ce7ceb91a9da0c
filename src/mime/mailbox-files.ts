// Reads messages out of .eml files, mbox files and Maildir folders, one at a time and byte for byte, for bulk import.
import { createReadStream, type Dirent } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';

/** What a path yields: a message's exact bytes, or why one could not be had, or a file left alone. */
export type MailboxItem =
  | { kind: 'message'; source: string; raw: Buffer }
  | { kind: 'oversized'; source: string; size: number }
  | { kind: 'unreadable'; source: string; reason: string }
  | { kind: 'skipped'; source: string; reason: string };

/** One message of an mbox, numbered from 1 in file order. */
export type MboxEntry = { index: number; raw: Buffer } | { index: number; oversizedBytes: number };

const LF = 0x0a;
const CR = 0x0d;
const GT = 0x3e;
const FROM_ = Buffer.from('From ');

const startsWithAt = (buffer: Buffer, prefix: Buffer, at: number): boolean =>
  buffer.length >= at + prefix.length && buffer.compare(prefix, 0, prefix.length, at, at + prefix.length) === 0;

/** Collects one message's bytes until it outgrows the limit; past that it only counts, so memory stays bounded. */
class MessageBytes {
  private parts: Buffer[] = [];
  size = 0;

  constructor(readonly index: number, private readonly maxBytes: number) {}

  append(bytes: Buffer): void {
    this.size += bytes.length;
    if (this.size > this.maxBytes) this.parts = [];
    else this.parts.push(bytes);
  }

  entry(): MboxEntry {
    return this.size > this.maxBytes ? { index: this.index, oversizedBytes: this.size } : { index: this.index, raw: Buffer.concat(this.parts, this.size) };
  }
}

/**
 * Splits an mbox (mboxo or mboxrd) into its messages as the bytes they were before they were written to it: the
 * "From " separator lines and the blank line before each are dropped, one '>' is taken off lines matching /^>+From /
 * (mboxrd's escape, which also undoes mboxo's), line endings are kept as they are (LF or CRLF).
 *
 * A "From " line separates only at the start, after a blank line or right after another separator, as writers
 * always put it: an unescaped "From " inside a paragraph stays body text. Bytes before the first separator, if
 * any, are a message of their own. Reads `chunks` as they come; holds at most one message (up to `maxMessageBytes`)
 * and one line, except that a line longer than the limit is counted, not held.
 */
export async function* splitMbox(chunks: AsyncIterable<Buffer> | Iterable<Buffer>, maxMessageBytes: number): AsyncGenerator<MboxEntry> {
  // Reassigned inside the line handler; the cast keeps the compiler from narrowing it to its initial null.
  let current = null as MessageBytes | null;
  let count = 0;
  let startOfFile = true;
  let afterSeparator = false;
  // A blank line held back until the next line shows whether it was the separator's or the message's own.
  let pendingBlank: Buffer | null = null;
  let carry: Buffer[] = [];
  let carryBytes = 0;
  // Inside a line longer than the limit: its bytes count toward an already oversized message and nothing else.
  let overlong = false;

  const message = (): MessageBytes => (current ??= new MessageBytes(++count, maxMessageBytes));

  /** Handles one complete line (with its line break, if it has one); returns a finished message, if this line ended one. */
  const line = (bytes: Buffer): MboxEntry | null => {
    const separator = startsWithAt(bytes, FROM_, 0) && (startOfFile || afterSeparator || pendingBlank !== null);
    startOfFile = false;
    if (separator) {
      const finished = current?.entry() ?? null;
      current = new MessageBytes(++count, maxMessageBytes);
      pendingBlank = null;
      afterSeparator = true;
      return finished;
    }
    afterSeparator = false;
    const target = message();
    if (pendingBlank) target.append(pendingBlank);
    pendingBlank = null;
    const contentEnd = bytes.length - (bytes[bytes.length - 1] === LF ? (bytes[bytes.length - 2] === CR ? 2 : 1) : 0);
    if (contentEnd === 0) {
      pendingBlank = bytes;
      return null;
    }
    let quotes = 0;
    while (bytes[quotes] === GT) quotes++;
    target.append(quotes > 0 && startsWithAt(bytes, FROM_, quotes) ? bytes.subarray(1) : bytes);
    return null;
  };

  for await (const chunk of chunks) {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(LF, start);
      const end = newline === -1 ? chunk.length : newline + 1;
      const piece = chunk.subarray(start, end);
      start = end;
      if (overlong) {
        message().append(piece);
        if (newline !== -1) overlong = false;
        continue;
      }
      if (newline === -1) {
        carry.push(piece);
        carryBytes += piece.length;
        if (carryBytes > maxMessageBytes) {
          // No message can hold this line, so it is no separator worth finding: count it into the current message.
          startOfFile = false;
          afterSeparator = false;
          const target = message();
          if (pendingBlank) target.append(pendingBlank);
          pendingBlank = null;
          for (const part of carry) target.append(part);
          carry = [];
          carryBytes = 0;
          overlong = true;
        }
        continue;
      }
      const whole = carry.length === 0 ? piece : Buffer.concat([...carry, piece]);
      carry = [];
      carryBytes = 0;
      const finished = line(whole);
      if (finished) yield finished;
    }
  }
  if (carryBytes > 0) {
    const finished = line(Buffer.concat(carry));
    if (finished) yield finished;
  }
  // The blank line after the last message is the format's, like the one before every separator.
  if (current) yield current.entry();
}

/** The first bytes of a file, enough to tell an mbox (it opens with a "From " line) from a single message. */
async function opensWithFromLine(file: string): Promise<boolean> {
  const handle = await fs.open(file, 'r');
  try {
    const head = Buffer.alloc(FROM_.length);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return bytesRead === head.length && head.equals(FROM_);
  } finally {
    await handle.close();
  }
}

const reasonOf = (error: unknown): string => (error as NodeJS.ErrnoException).code ?? (error as Error).message;

/** A file's size and, when it is at most `readUpTo` bytes, its content; never rejects, so it can be started early. */
type Loaded = { size: number; bytes: Buffer | null } | { error: unknown };

async function load(file: string, readUpTo: number): Promise<Loaded> {
  try {
    const size = (await fs.stat(file)).size;
    return { size, bytes: size <= readUpTo ? await fs.readFile(file) : null };
  } catch (error) {
    return { error };
  }
}

/**
 * Files read ahead of the one being consumed. Each read waits in libuv's small thread pool behind the capture's own
 * file writes and fsyncs; one read at a time would leave the pipeline waiting for input.
 */
const READ_AHEAD_FILES = 16;
/** Larger files are not read ahead, so read-ahead holds at most READ_AHEAD_FILES × this many bytes. */
const READ_AHEAD_FILE_BYTES = 1024 * 1024;

/** A file that opens with a "From " line is an mbox, whatever its name; any other file is one message. */
async function* readMessageFile(file: string, maxMessageBytes: number, ahead?: Promise<Loaded>): AsyncGenerator<MailboxItem> {
  let loaded = await (ahead ?? load(file, maxMessageBytes));
  // Read-ahead left a file between its cap and the limit for now.
  if ('size' in loaded && loaded.bytes === null && loaded.size <= maxMessageBytes) loaded = await load(file, maxMessageBytes);
  if ('error' in loaded) {
    yield { kind: 'unreadable', source: file, reason: reasonOf(loaded.error) };
    return;
  }
  const { size, bytes } = loaded;
  let mbox: boolean;
  try {
    // Only a file over the limit is opened twice (to look, then to stream).
    mbox = bytes ? startsWithAt(bytes, FROM_, 0) : await opensWithFromLine(file);
  } catch (error) {
    yield { kind: 'unreadable', source: file, reason: reasonOf(error) };
    return;
  }
  if (!mbox) {
    yield bytes ? { kind: 'message', source: file, raw: bytes } : { kind: 'oversized', source: file, size };
    return;
  }
  let last = 0;
  try {
    const chunks = bytes ? [bytes] : createReadStream(file, { highWaterMark: 256 * 1024 });
    for await (const entry of splitMbox(chunks, maxMessageBytes)) {
      last = entry.index;
      const source = `${file}#${entry.index}`;
      yield 'raw' in entry ? { kind: 'message', source, raw: entry.raw } : { kind: 'oversized', source, size: entry.oversizedBytes };
    }
  } catch (error) {
    // The messages before the failure were yielded; the rest of the file is lost to this run.
    yield { kind: 'unreadable', source: `${file}#${last + 1}`, reason: `${reasonOf(error)}; the rest of the mbox was not read` };
  }
}

/** readMessageFile for each file in order, with the next few already being read. */
async function* readMessageFiles(files: string[], maxMessageBytes: number): AsyncGenerator<MailboxItem> {
  const ahead: Promise<Loaded>[] = [];
  let started = 0;
  for (const file of files) {
    while (started < files.length && ahead.length < READ_AHEAD_FILES) ahead.push(load(files[started++]!, Math.min(maxMessageBytes, READ_AHEAD_FILE_BYTES)));
    yield* readMessageFile(file, maxMessageBytes, ahead.shift());
  }
}

const byName = (a: Dirent, b: Dirent): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

async function entriesOf(folder: string): Promise<Dirent[]> {
  return (await fs.readdir(folder, { withFileTypes: true })).sort(byName);
}

/** Files and folders alike; a symbolic link is resolved once, and a linked folder is not walked, so no walk loops. */
async function kindOf(folder: string, entry: Dirent): Promise<'file' | 'folder' | 'linked folder' | 'other'> {
  if (entry.isFile()) return 'file';
  if (entry.isDirectory()) return 'folder';
  if (!entry.isSymbolicLink()) return 'other';
  const target = await fs.stat(path.join(folder, entry.name));
  return target.isFile() ? 'file' : target.isDirectory() ? 'linked folder' : 'other';
}

/**
 * A folder's messages, recursively, in name order. A folder with cur/ or new/ is a Maildir: the files of both, in
 * name order (Maildir names start with the delivery time), every one a message; tmp/ holds deliveries under way
 * and the Maildir's own files (dovecot-uidlist and the like) are not mail, so neither is read. Elsewhere a file is
 * read if it ends in .eml or opens with a "From " line (an mbox); other files are reported as skipped.
 */
async function* readFolder(folder: string, maxMessageBytes: number): AsyncGenerator<MailboxItem> {
  let entries: Dirent[];
  try {
    entries = await entriesOf(folder);
  } catch (error) {
    yield { kind: 'unreadable', source: folder, reason: reasonOf(error) };
    return;
  }
  const maildir = entries.some((entry) => entry.isDirectory() && (entry.name === 'cur' || entry.name === 'new'));
  if (maildir) {
    const files: string[] = [];
    for (const sub of ['new', 'cur']) {
      if (!entries.some((entry) => entry.isDirectory() && entry.name === sub)) continue;
      try {
        for (const entry of await entriesOf(path.join(folder, sub))) if (entry.isFile()) files.push(path.join(folder, sub, entry.name));
      } catch (error) {
        yield { kind: 'unreadable', source: path.join(folder, sub), reason: reasonOf(error) };
      }
    }
    files.sort((a, b) => (path.basename(a) < path.basename(b) ? -1 : path.basename(a) > path.basename(b) ? 1 : 0));
    yield* readMessageFiles(files, maxMessageBytes);
  }
  // Files to read, gathered until a subfolder or a report comes next in name order, so they share the read-ahead.
  let run: string[] = [];
  const flush = () => {
    const files = run;
    run = [];
    return readMessageFiles(files, maxMessageBytes);
  };
  for (const entry of entries) {
    const full = path.join(folder, entry.name);
    if (maildir && (entry.name === 'cur' || entry.name === 'new' || entry.name === 'tmp')) continue;
    let kind: Awaited<ReturnType<typeof kindOf>>;
    let mbox = false;
    try {
      kind = await kindOf(folder, entry);
      if (kind === 'file' && !maildir && !entry.name.toLowerCase().endsWith('.eml')) mbox = await opensWithFromLine(full);
    } catch (error) {
      yield* flush();
      yield { kind: 'unreadable', source: full, reason: reasonOf(error) };
      continue;
    }
    if (kind === 'file' && maildir) continue; // the Maildir's own bookkeeping files
    if (kind === 'file' && (mbox || entry.name.toLowerCase().endsWith('.eml'))) {
      run.push(full);
      continue;
    }
    yield* flush();
    if (kind === 'folder') yield* readFolder(full, maxMessageBytes);
    else if (kind === 'linked folder') yield { kind: 'skipped', source: full, reason: 'a symbolic link to a folder (not followed)' };
    else if (kind === 'other') yield { kind: 'skipped', source: full, reason: 'not a regular file' };
    else yield { kind: 'skipped', source: full, reason: 'neither .eml nor an mbox (no "From " first line)' };
  }
  yield* flush();
}

/**
 * Every message under `paths`, in order. A file named on its own is always read (an mbox if it opens with a
 * "From " line, otherwise one message); a folder is walked as readFolder says. Nothing is ever read whole beyond
 * `maxMessageBytes` per message.
 */
export async function* readMailboxFiles(paths: string[], maxMessageBytes: number): AsyncGenerator<MailboxItem> {
  // Files named one after another (a shell glob) share the read-ahead too.
  let run: string[] = [];
  for (const given of paths) {
    let isFolder: boolean;
    try {
      isFolder = (await fs.stat(given)).isDirectory();
    } catch (error) {
      yield* readMessageFiles(run, maxMessageBytes);
      run = [];
      yield { kind: 'unreadable', source: given, reason: reasonOf(error) };
      continue;
    }
    if (!isFolder) {
      run.push(given);
      continue;
    }
    yield* readMessageFiles(run, maxMessageBytes);
    run = [];
    yield* readFolder(given, maxMessageBytes);
  }
  yield* readMessageFiles(run, maxMessageBytes);
}
