// Reads messages out of .eml files, mbox files and Maildir folders, one at a time and byte for byte, for bulk import.
// The files may be anyone's: only regular files inside the folder named are read, and no link is followed.
import { constants, type Dirent, type Stats } from 'node:fs';
import fs, { type FileHandle } from 'node:fs/promises';
import path from 'node:path';

/** Why an entry that might have held mail was not read. */
export type RefusalCode = 'symbolic_link' | 'not_a_regular_file' | 'outside_folder';

/** What a path yields: a message's exact bytes, or why one could not be had, or a file left alone. */
export type MailboxItem =
  | { kind: 'message'; source: string; raw: Buffer }
  | { kind: 'oversized'; source: string; size: number }
  | { kind: 'unreadable'; source: string; reason: string }
  | { kind: 'refused'; source: string; code: RefusalCode; reason: string }
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

type Refusal = Extract<MailboxItem, { kind: 'refused' }>;

const refusal = (source: string, code: RefusalCode, reason: string): Refusal => ({ kind: 'refused', source, code, reason });

const reasonOf = (error: unknown): string => (error as NodeJS.ErrnoException).code ?? (error as Error).message;

/** Why an entry that is neither a regular file nor a folder is not read. */
function notRegular(source: string, entry: Stats | Dirent): Refusal {
  if (entry.isSymbolicLink()) return refusal(source, 'symbolic_link', 'a symbolic link (not followed)');
  const what = entry.isFIFO() ? 'a FIFO' : entry.isSocket() ? 'a socket' : entry.isCharacterDevice() || entry.isBlockDevice() ? 'a device' : 'neither a file nor a folder';
  return refusal(source, 'not_a_regular_file', `not a regular file (${what})`);
}

/** Whether a real path lies inside (strictly under) a real folder. */
function inside(real: string, root: string): boolean {
  const relative = path.relative(root, real);
  return relative !== '' && relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative);
}

/** Read only, never through a link at the path's end; a FIFO swapped in after the look answers at once rather than block. */
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

interface Opened {
  handle: FileHandle;
  size: number;
}

/**
 * Opens `file` if it is a regular file inside `root` (a real path). It is looked at first, so a device or FIFO is
 * never opened; opened without following a link, so a link swapped in meanwhile is refused; and the file opened must
 * be the one at its real path, inside `root`, so a folder on the way swapped for a link is refused too. Rejects only
 * with the file system's own errors.
 */
async function openInside(file: string, root: string): Promise<Opened | Refusal> {
  const listed = await fs.lstat(file);
  if (!listed.isFile()) return notRegular(file, listed);
  let handle: FileHandle;
  try {
    handle = await fs.open(file, OPEN_FLAGS);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') return refusal(file, 'symbolic_link', 'a symbolic link (not followed)');
    throw error;
  }
  let kept = false;
  try {
    const opened = await handle.stat();
    if (!opened.isFile()) return notRegular(file, opened);
    const real = await fs.realpath(file);
    const there = await fs.stat(real);
    if (!inside(real, root) || there.dev !== opened.dev || there.ino !== opened.ino) return refusal(file, 'outside_folder', `not inside ${root} once links are resolved`);
    kept = true;
    return { handle, size: opened.size };
  } finally {
    if (!kept) await handle.close();
  }
}

/** The file's first `size` bytes: a file grown since it was measured is read no further, one that shrank as far as it goes. */
async function readStart(handle: FileHandle, size: number): Promise<Buffer> {
  const bytes = Buffer.alloc(size);
  let filled = 0;
  while (filled < size) {
    const { bytesRead } = await handle.read(bytes, filled, size - filled, filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return bytes.subarray(0, filled);
}

/** Whether an opened file starts with a "From " line, which makes it an mbox. */
async function opensWithFromLine(handle: FileHandle): Promise<boolean> {
  return startsWithAt(await readStart(handle, FROM_.length), FROM_, 0);
}

/** A file to read, and the real folder it must lie inside. */
interface Candidate {
  file: string;
  root: string;
}

/** A file's size and, when it is at most `readUpTo` bytes, its content; never rejects, so it can be started early. */
type Loaded = { size: number; bytes: Buffer | null } | Refusal | { error: unknown };

async function load({ file, root }: Candidate, readUpTo: number): Promise<Loaded> {
  try {
    const opened = await openInside(file, root);
    if ('kind' in opened) return opened;
    try {
      return { size: opened.size, bytes: opened.size <= readUpTo ? await readStart(opened.handle, opened.size) : null };
    } finally {
      await opened.handle.close();
    }
  } catch (error) {
    return { error };
  }
}

/** An opened file's head, to tell an mbox from other files while walking a folder. */
async function headIsFromLine({ file, root }: Candidate): Promise<boolean | Refusal> {
  const opened = await openInside(file, root);
  if ('kind' in opened) return opened;
  try {
    return await opensWithFromLine(opened.handle);
  } finally {
    await opened.handle.close();
  }
}

/**
 * Files read ahead of the one being consumed. Each read waits in libuv's small thread pool behind the capture's own
 * file writes and fsyncs; one read at a time would leave the pipeline waiting for input.
 */
const READ_AHEAD_FILES = 16;
/** Larger files are not read ahead, so read-ahead holds at most READ_AHEAD_FILES × this many bytes. */
const READ_AHEAD_FILE_BYTES = 1024 * 1024;

/** An mbox's messages as items; a read failure ends the file with one item saying so. */
async function* mboxItems(file: string, chunks: AsyncIterable<Buffer> | Iterable<Buffer>, maxMessageBytes: number): AsyncGenerator<MailboxItem> {
  let last = 0;
  try {
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

/** A file that opens with a "From " line is an mbox, whatever its name; any other file is one message. */
async function* readMessageFile(candidate: Candidate, maxMessageBytes: number, ahead?: Promise<Loaded>): AsyncGenerator<MailboxItem> {
  const { file, root } = candidate;
  let loaded = await (ahead ?? load(candidate, maxMessageBytes));
  // Read-ahead left a file between its cap and the limit for now.
  if ('size' in loaded && loaded.bytes === null && loaded.size <= maxMessageBytes) loaded = await load(candidate, maxMessageBytes);
  if ('kind' in loaded) {
    yield loaded;
    return;
  }
  if ('error' in loaded) {
    yield { kind: 'unreadable', source: file, reason: reasonOf(loaded.error) };
    return;
  }
  const { size, bytes } = loaded;
  if (bytes) {
    if (startsWithAt(bytes, FROM_, 0)) yield* mboxItems(file, [bytes], maxMessageBytes);
    else yield { kind: 'message', source: file, raw: bytes };
    return;
  }
  // Over the limit: opened again, under the same checks, to look at its first line and to stream an mbox.
  let opened: Opened | Refusal;
  try {
    opened = await openInside(file, root);
  } catch (error) {
    yield { kind: 'unreadable', source: file, reason: reasonOf(error) };
    return;
  }
  if ('kind' in opened) {
    yield opened;
    return;
  }
  let mbox: boolean;
  try {
    mbox = await opensWithFromLine(opened.handle);
  } catch (error) {
    await opened.handle.close();
    yield { kind: 'unreadable', source: file, reason: reasonOf(error) };
    return;
  }
  if (!mbox) {
    await opened.handle.close();
    yield { kind: 'oversized', source: file, size };
    return;
  }
  // The stream closes the handle when it ends, fails or is given up.
  yield* mboxItems(file, opened.handle.createReadStream({ highWaterMark: 256 * 1024 }), maxMessageBytes);
}

/** readMessageFile for each file in order, with the next few already being read. */
async function* readMessageFiles(candidates: Candidate[], maxMessageBytes: number): AsyncGenerator<MailboxItem> {
  const ahead: Promise<Loaded>[] = [];
  let started = 0;
  for (const candidate of candidates) {
    while (started < candidates.length && ahead.length < READ_AHEAD_FILES) ahead.push(load(candidates[started++]!, Math.min(maxMessageBytes, READ_AHEAD_FILE_BYTES)));
    yield* readMessageFile(candidate, maxMessageBytes, ahead.shift());
  }
}

const byName = (a: Dirent, b: Dirent): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

async function entriesOf(folder: string): Promise<Dirent[]> {
  return (await fs.readdir(folder, { withFileTypes: true })).sort(byName);
}

/**
 * A folder's messages, recursively, in name order. A folder with cur/ or new/ is a Maildir: the files of both, in
 * name order (Maildir names start with the delivery time), every one a message; tmp/ holds deliveries under way
 * and the Maildir's own files (dovecot-uidlist and the like) are not mail, so neither is read. Elsewhere a file is
 * read if it ends in .eml or opens with a "From " line (an mbox); other files are reported as skipped. Symbolic
 * links, devices, FIFOs and sockets are refused, never followed or opened; `root` is the real path of the folder
 * named, and nothing outside it is read.
 */
async function* readFolder(folder: string, root: string, maxMessageBytes: number): AsyncGenerator<MailboxItem> {
  let entries: Dirent[];
  try {
    // A folder swapped for a link since it was listed would lead outside.
    const real = await fs.realpath(folder);
    if (real !== root && !inside(real, root)) {
      yield refusal(folder, 'outside_folder', `not inside ${root} once links are resolved`);
      return;
    }
    entries = await entriesOf(folder);
  } catch (error) {
    yield { kind: 'unreadable', source: folder, reason: reasonOf(error) };
    return;
  }
  const maildir = entries.some((entry) => entry.isDirectory() && (entry.name === 'cur' || entry.name === 'new'));
  if (maildir) {
    const files: Candidate[] = [];
    for (const sub of ['new', 'cur']) {
      if (!entries.some((entry) => entry.isDirectory() && entry.name === sub)) continue;
      try {
        for (const entry of await entriesOf(path.join(folder, sub))) {
          const full = path.join(folder, sub, entry.name);
          if (entry.isFile()) files.push({ file: full, root });
          else if (entry.isDirectory()) yield { kind: 'skipped', source: full, reason: `a folder inside a Maildir's ${sub}/ (not walked)` };
          else yield notRegular(full, entry);
        }
      } catch (error) {
        yield { kind: 'unreadable', source: path.join(folder, sub), reason: reasonOf(error) };
      }
    }
    files.sort((a, b) => (path.basename(a.file) < path.basename(b.file) ? -1 : path.basename(a.file) > path.basename(b.file) ? 1 : 0));
    yield* readMessageFiles(files, maxMessageBytes);
  }
  // Files to read, gathered until a subfolder or a report comes next in name order, so they share the read-ahead.
  let run: Candidate[] = [];
  const flush = () => {
    const files = run;
    run = [];
    return readMessageFiles(files, maxMessageBytes);
  };
  for (const entry of entries) {
    const full = path.join(folder, entry.name);
    if (maildir && (entry.name === 'cur' || entry.name === 'new' || entry.name === 'tmp')) continue;
    if (entry.isDirectory()) {
      yield* flush();
      yield* readFolder(full, root, maxMessageBytes);
      continue;
    }
    if (!entry.isFile()) {
      yield* flush();
      yield notRegular(full, entry);
      continue;
    }
    if (maildir) continue; // the Maildir's own bookkeeping files
    const eml = entry.name.toLowerCase().endsWith('.eml');
    let mbox: boolean | Refusal = false;
    try {
      if (!eml) mbox = await headIsFromLine({ file: full, root });
    } catch (error) {
      yield* flush();
      yield { kind: 'unreadable', source: full, reason: reasonOf(error) };
      continue;
    }
    if (eml || mbox === true) {
      run.push({ file: full, root });
      continue;
    }
    yield* flush();
    yield mbox === false ? { kind: 'skipped', source: full, reason: 'neither .eml nor an mbox (no "From " first line)' } : mbox;
  }
  yield* flush();
}

/**
 * Every message under `paths`, in order. A file named on its own is always read (an mbox if it opens with a
 * "From " line, otherwise one message); a folder is walked as readFolder says. A path named that is a symbolic link
 * is refused like one met in a folder (a shell glob names whatever a folder holds): name what it points to. Nothing
 * is ever read whole beyond `maxMessageBytes` per message.
 */
export async function* readMailboxFiles(paths: string[], maxMessageBytes: number): AsyncGenerator<MailboxItem> {
  // Files named one after another (a shell glob) share the read-ahead too.
  let run: Candidate[] = [];
  const flush = () => {
    const files = run;
    run = [];
    return readMessageFiles(files, maxMessageBytes);
  };
  for (const given of paths) {
    let listed: Stats;
    let root: string;
    try {
      listed = await fs.lstat(given);
      root = await fs.realpath(listed.isDirectory() ? given : path.dirname(given));
    } catch (error) {
      yield* flush();
      yield { kind: 'unreadable', source: given, reason: reasonOf(error) };
      continue;
    }
    if (listed.isFile()) {
      run.push({ file: given, root });
      continue;
    }
    yield* flush();
    if (listed.isDirectory()) yield* readFolder(given, root, maxMessageBytes);
    else yield notRegular(given, listed);
  }
  yield* flush();
}
