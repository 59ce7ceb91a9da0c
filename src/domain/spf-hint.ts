// What the SPF record of a domain allows, read for a hint (RFC 7208 §4.5: one `v=spf1` record, or none that counts).
// The check gives no SPF verdict: the message reached the sandbox from a test client, not from the sending server.

export type SpfRecordStatus =
  | { status: 'found'; record: string; terms: string[] }
  | { status: 'none' }
  | { status: 'permerror'; count: number };

/** The domain's SPF record among its TXT records, each record's character strings joined. */
export function spfRecordOf(records: readonly (readonly string[])[]): SpfRecordStatus {
  const spf = records.map((strings) => strings.join('')).filter((text) => /^v=spf1(\s|$)/i.test(text));
  if (spf.length === 0) return { status: 'none' };
  if (spf.length > 1) return { status: 'permerror', count: spf.length };
  const record = spf[0]!;
  return { status: 'found', record, terms: record.split(/\s+/).slice(1).filter((term) => term !== '') };
}
