// A name server on loopback for tests of outbound lookups: it answers A queries for the names it is given, says a
// name does not exist otherwise (NXDOMAIN), and never answers anything under a black-hole suffix, as a tenant's
// name server that drops queries would. It records every question, so a test can tell which lookups were made.
import dgram from 'node:dgram';
import type { AddressInfo } from 'node:net';

const TYPE_A = 1;
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

/** The answer to one query: the question echoed, and an A record per address for an A question about a known name. */
function answer(query: Buffer, questionEnd: number, type: number, addresses: string[] | undefined): Buffer {
  const header = Buffer.alloc(12);
  query.copy(header, 0, 0, 2);
  const recursionDesired = query[2]! & 0x01;
  // QR (a response), the query's RD, RA; NXDOMAIN for a name this server does not know.
  header.writeUInt16BE(0x8000 | (recursionDesired << 8) | 0x0080 | (addresses === undefined ? NXDOMAIN : 0), 2);
  header.writeUInt16BE(1, 4);
  const records = type === TYPE_A && addresses ? addresses : [];
  header.writeUInt16BE(records.length, 6);
  const question = query.subarray(12, questionEnd + 4);
  const answers = records.map((address) => {
    const record = Buffer.alloc(16);
    // A pointer to the question's name at offset 12.
    record.writeUInt16BE(0xc00c, 0);
    record.writeUInt16BE(TYPE_A, 2);
    record.writeUInt16BE(CLASS_IN, 4);
    record.writeUInt32BE(60, 6);
    record.writeUInt16BE(4, 10);
    address.split('.').forEach((octet, index) => record.writeUInt8(Number(octet), 12 + index));
    return record;
  });
  return Buffer.concat([header, question, ...answers]);
}

/**
 * Starts the server on 127.0.0.1. `names` maps a name to its IPv4 addresses (AAAA questions about it get an empty
 * answer); names ending in `blackholeSuffix` get no answer at all.
 */
export async function startDnsServer(names: Record<string, string[]>, blackholeSuffix = '.blackhole.test'): Promise<TestDnsServer> {
  const socket = dgram.createSocket('udp4');
  const questions: DnsQuestion[] = [];
  socket.on('message', (query, peer) => {
    const question = readQuestion(query);
    if (question === null || question.end + 4 > query.length) return;
    const type = query.readUInt16BE(question.end);
    questions.push({ name: question.name, type });
    if (question.name.endsWith(blackholeSuffix)) return;
    socket.send(answer(query, question.end, type, names[question.name]), peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    address: `127.0.0.1:${(socket.address() as AddressInfo).port}`,
    questions,
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}
