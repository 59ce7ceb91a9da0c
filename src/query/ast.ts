// The q language's syntax tree: one shape that every backend compiler and the in-memory matcher consume.
import type { AddressField } from '../domain/types.js';

export type { AddressField };

/**
 * `sender` is the From header and the envelope sender; `recipients` every recipient (To, Cc, Bcc and the envelope's);
 * `to`, `cc`, `bcc` and `replyTo` one header each (`bcc` also holds the envelope recipients no To or Cc header names).
 */
export type TextField = 'subject' | 'sender' | 'recipients' | 'body' | 'to' | 'cc' | 'bcc' | 'replyTo' | 'messageId';

export type QueryNode =
  | { kind: 'and'; children: QueryNode[] }
  | { kind: 'or'; children: QueryNode[] }
  | { kind: 'not'; child: QueryNode }
  /** Normalised substring (see normalizeSearchText) looked for in any of the fields. */
  | { kind: 'text'; fields: TextField[]; needle: string }
  /** An address any of the fields names, compared by its key (domain/mailbox-key.ts): `to:=alice@example.test`. */
  | { kind: 'address'; fields: AddressField[]; key: string }
  | { kind: 'read'; value: boolean }
  | { kind: 'tagged' }
  /** Tag names compare case-insensitively; `name` is lower case. */
  | { kind: 'tag'; name: string }
  | { kind: 'has_attachment' }
  /** A part shown inside the message (Content-Disposition inline, or an image its HTML embeds by cid:). */
  | { kind: 'has_inline' }
  /** A one-time code was found in it at capture. */
  | { kind: 'has_code' }
  | { kind: 'size'; op: 'gt' | 'lt'; bytes: number }
  | { kind: 'received'; op: 'gte' | 'lt'; at: Date };

/** The fields a bare word searches. */
export const ALL_TEXT_FIELDS: TextField[] = ['subject', 'sender', 'recipients', 'body'];

/** Every address header: what Mailpit's addressed: searches. */
export const ADDRESS_FIELDS: TextField[] = ['sender', 'to', 'cc', 'bcc', 'replyTo'];

export const matchAll = (): QueryNode => ({ kind: 'and', children: [] });

/** Joins clauses with AND, flattening nested ANDs. */
export function and(...nodes: QueryNode[]): QueryNode {
  const children = nodes.flatMap((node) => (node.kind === 'and' ? node.children : [node]));
  return children.length === 1 ? children[0]! : { kind: 'and', children };
}

export type TextNode = Extract<QueryNode, { kind: 'text' }>;
export type AddressNode = Extract<QueryNode, { kind: 'address' }>;

const requiredClauses = (node: QueryNode): QueryNode[] => (node.kind === 'and' ? node.children : [node]);

/**
 * The text clauses every match must satisfy (children of the top-level AND, or the query itself): a backend can
 * start from the index hits of any one of them instead of walking the inbox.
 */
export function requiredText(node: QueryNode): TextNode[] {
  return requiredClauses(node).filter((clause): clause is TextNode => clause.kind === 'text');
}

/** The exact-address clauses every match must satisfy, which an index can start from as it can from text. */
export function requiredAddresses(node: QueryNode): AddressNode[] {
  return requiredClauses(node).filter((clause): clause is AddressNode => clause.kind === 'address');
}
