// A name server on loopback for tests of outbound lookups: it answers A and TXT queries for the names it is given, says
// a name does not exist otherwise (NXDOMAIN), and never answers anything under a black-hole suffix, as a tenant's
// name server that drops queries would. It records every question, so a test can tell which lookups were made.
import dgram from 'node:dgram';
import type { AddressInfo } from 'node:net';

const TYPE_A = 1;
const TYPE_TXT = 16;
/** A TXT record's text goes in character strings of at most this many bytes each (RFC 1035 §3.3.14). */
const CHARACTER_STRING_BYTES = 255;
const CLASS_IN = 1;
const NXDOMAIN = 3;

export interface DnsQuestion {
  name: string;
  type: number;
}

export interface TestDnsServer {
  /** `127.0.0.1:<port>`, as SANDBOX_DNS_SERVERS takes it. */
  address: string;
  /** Every question received, black-holed ones included, in order of arrival. */
  questions: DnsQuestion[];
  close(): Promise<void>;
}

/** The question's name (lower case, no trailing dot) and where its type field starts. */
function readQuestion(query: Buffer): { name: string; end: number } | null {
  const labels: string[] = [];
  let offset = 12;
  while (offset < query.length) {
    const length = query[offset]!;
    if (length === 0) return { name: labels.join('.').toLowerCase(), end: offset + 1 };
    // Compression pointers never appear in a question a resolver sends, so anything else is a malformed query.
    if (length > 63) return null;
    labels.push(query.toString('latin1', offset + 1, offset + 1 + length));
    offset += 1 + length;
  }
  return null;
}

/** One resource record about the question's name (a pointer to it at offset 12). */
function resourceRecord(type: number, data: Buffer): Buffer {
  const record = Buffer.alloc(12);
  record.writeUInt16BE(0xc00c, 0);
  record.writeUInt16BE(type, 2);
  record.writeUInt16BE(CLASS_IN, 4);
  record.writeUInt32BE(60, 6);
  record.writeUInt16BE(data.length, 10);
  return Buffer.concat([record, data]);
}

const addressData = (address: string): Buffer => Buffer.from(address.split('.').map(Number));

/** A TXT record's data: its text cut into character strings, each after its length. */
function textData(text: string): Buffer {
  const bytes = Buffer.from(text, 'utf8');
  const strings: Buffer[] = [];
  for (let at = 0; at < bytes.length || strings.length === 0; at += CHARACTER_STRING_BYTES) {
    const part = bytes.subarray(at, at + CHARACTER_STRING_BYTES);
    strings.push(Buffer.from([part.length]), part);
  }
  return Buffer.concat(strings);
}

/** What the server knows of one name; undefined for a name it does not know. */
interface KnownName {
  addresses: string[];
  texts: string[];
}

/** The answer to one query: the question echoed, and the A or TXT records of a known name. */
function answer(query: Buffer, questionEnd: number, type: number, known: KnownName | undefined): Buffer {
  const header = Buffer.alloc(12);
  query.copy(header, 0, 0, 2);
  const recursionDesired = query[2]! & 0x01;
  // QR (a response), the query's RD, RA; NXDOMAIN for a name this server does not know.
  header.writeUInt16BE(0x8000 | (recursionDesired << 8) | 0x0080 | (known === undefined ? NXDOMAIN : 0), 2);
  header.writeUInt16BE(1, 4);
  const records = known === undefined ? []
    : type === TYPE_A ? known.addresses.map((address) => resourceRecord(TYPE_A, addressData(address)))
      : type === TYPE_TXT ? known.texts.map((text) => resourceRecord(TYPE_TXT, textData(text)))
        : [];
  header.writeUInt16BE(records.length, 6);
  const question = query.subarray(12, questionEnd + 4);
  return Buffer.concat([header, question, ...records]);
}

/**
 * Starts the server on 127.0.0.1. `names` maps a name to its IPv4 addresses (AAAA questions about it get an empty
 * answer), `texts` a name to its TXT records (DKIM keys, DMARC and SPF records); a name in either exists, and has no
 * records of the types the other one gives it. Names ending in `blackholeSuffix` get no answer at all.
 */
export async function startDnsServer(names: Record<string, string[]>, blackholeSuffix = '.blackhole.test', texts: Record<string, string[]> = {}): Promise<TestDnsServer> {
  const known = (name: string): KnownName | undefined =>
    (Object.hasOwn(names, name) || Object.hasOwn(texts, name) ? { addresses: names[name] ?? [], texts: texts[name] ?? [] } : undefined);
  const socket = dgram.createSocket('udp4');
  const questions: DnsQuestion[] = [];
  socket.on('message', (query, peer) => {
    const question = readQuestion(query);
    if (question === null || question.end + 4 > query.length) return;
    const type = query.readUInt16BE(question.end);
    questions.push({ name: question.name, type });
    if (question.name.endsWith(blackholeSuffix)) return;
    socket.send(answer(query, question.end, type, known(question.name)), peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    address: `127.0.0.1:${(socket.address() as AddressInfo).port}`,
    questions,
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}
