// A filter's terms written back in the q language, and which of them a message fails: what a wait that timed out
// says about the mail that came instead.
import type { MessageRecord } from '../domain/types.js';
import { mailboxText } from '../domain/mailbox-key.js';
import type { QueryNode } from './ast.js';
import { matches } from './match.js';
import { ADDRESS_OPERATORS, HEADER_OPERATORS } from './parse-query.js';

export interface QueryTerm {
  /** The term as q would write it (`from:billing@acme.test`, `-tag:spam`, `(a OR b)`, `after:2026-12-03T07:00:00.000Z`). */
  text: string;
  node: QueryNode;
}

const sameFields = <Field>(a: Field[], b: Field[]) => a.length === b.length && a.every((field) => b.includes(field));

/** The operator whose fields are exactly `fields`, if the language has one. */
const operatorOf = <Field>(operators: Record<string, Field[]>, fields: Field[]) => Object.entries(operators).find(([, own]) => sameFields(own, fields))?.[0];

/** A value as one term: quoted when it holds what would split it or change its meaning. */
function quoted(value: string): string {
  const plain = value.replace(/"/g, '');
  return /[\s()]/u.test(plain) || plain === 'OR' || /^[-!]/.test(plain) || plain.includes(':') ? `"${plain}"` : plain;
}

function written(node: QueryNode, nested: boolean): string {
  switch (node.kind) {
    case 'and': {
      const text = node.children.map((child) => written(child, true)).join(' ');
      return nested ? `(${text})` : text;
    }
    case 'or':
      return `(${node.children.map((child) => written(child, true)).join(' OR ')})`;
    case 'not':
      return `-${written(node.child, true)}`;
    case 'text': {
      const operator = operatorOf(HEADER_OPERATORS, node.fields);
      // A bare word searches every text field; any other combination is not one the language can write.
      return operator === undefined ? quoted(node.needle) : `${operator}:${quoted(node.needle)}`;
    }
    case 'address':
      // Only the parser makes address terms, always with an operator's fields; addressed: reads every list.
      return `${operatorOf(ADDRESS_OPERATORS, node.fields) ?? 'addressed'}:=${mailboxText(node.key)}`;
    case 'read':
      return node.value ? 'is:read' : 'is:unread';
    case 'tagged':
      return 'is:tagged';
    case 'tag':
      return `tag:${quoted(node.name)}`;
    case 'has_attachment':
      return 'has:attachment';
    case 'has_inline':
      return 'has:inline';
    case 'has_code':
      return 'has:code';
    case 'size':
      return `${node.op === 'gt' ? 'larger' : 'smaller'}:${node.bytes}`;
    case 'received':
      return `${node.op === 'gte' ? 'after' : 'before'}:${node.at.toISOString()}`;
  }
}

/** The terms every match must satisfy: the top-level AND's clauses (or the filter itself), each written in q. */
export function queryTerms(filter: QueryNode): QueryTerm[] {
  const clauses = filter.kind === 'and' ? filter.children : [filter];
  return clauses.map((node) => ({ text: written(node, false), node }));
}

/** The terms `message` does not satisfy, in the filter's order; none when it matches. */
export function failedTerms(terms: QueryTerm[], message: MessageRecord): string[] {
  return terms.filter((term) => !matches(term.node, message)).map((term) => term.text);
}
