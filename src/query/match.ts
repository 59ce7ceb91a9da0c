// Evaluates a query against one message in memory: for a message that just arrived (tag rules, wait, streams, webhooks).
import type { MessageRecord, SearchFields } from '../domain/types.js';
import type { QueryNode } from './ast.js';

export type MatchableMessage = Pick<MessageRecord, 'read' | 'tags' | 'attachmentCount' | 'inlineCount' | 'codes' | 'size' | 'receivedAt'> & { search: SearchFields };

export function matches(node: QueryNode, message: MatchableMessage): boolean {
  switch (node.kind) {
    case 'and':
      return node.children.every((child) => matches(child, message));
    case 'or':
      return node.children.some((child) => matches(child, message));
    case 'not':
      return !matches(node.child, message);
    case 'text':
      return node.fields.some((field) => message.search[field].includes(node.needle));
    case 'address':
      return node.fields.some((field) => message.search.addresses[field].includes(node.key));
    case 'read':
      return message.read === node.value;
    case 'tagged':
      return message.tags.length > 0;
    case 'tag':
      return message.tags.some((tag) => tag.toLowerCase() === node.name);
    case 'has_attachment':
      return message.attachmentCount > 0;
    case 'has_inline':
      return message.inlineCount > 0;
    case 'has_code':
      return message.codes.length > 0;
    case 'size':
      return node.op === 'gt' ? message.size > node.bytes : message.size < node.bytes;
    case 'received':
      return node.op === 'gte' ? message.receivedAt.getTime() >= node.at.getTime() : message.receivedAt.getTime() < node.at.getTime();
  }
}
