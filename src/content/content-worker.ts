// Entry of a content worker thread: runs one parsing or analysis task on a message's bytes (see content-pool.ts).
import { messageAnalysis, parseEmail } from '../mime/parse-email.js';
import { headerSummary } from '../mime/header-summary.js';
import { attachmentContent, htmlBody, messageParts, messageView } from '../mime/message-view.js';
import { renderedHtml, renderedText } from '../mime/rendered-view.js';
import { searchFields } from '../domain/search-text.js';
import { matchRules } from '../query/match-rules.js';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { move, transferableSymbol, valueSymbol } from 'piscina';
import type { ComposedBody } from '../mime/compose-message.js';
import type { ContentResults, ContentTask, WarmTask } from './content-tasks.js';

/** The composed message travels back moved, not copied: it may be tens of MB, and the event loop would pay the copy. */
function transferringMessage(body: ComposedBody): ComposedBody {
  if (!('raw' in body.composed)) return body;
  const { raw } = body.composed;
  const own = raw.byteOffset === 0 && raw.byteLength === raw.buffer.byteLength ? raw : new Uint8Array(raw);
  return move({
    get [transferableSymbol]() {
      return [own.buffer];
    },
    get [valueSymbol]() {
      return { outline: body.outline, composed: { raw: own } };
    },
  }) as unknown as ComposedBody;
}

/**
 * A check's step module. Compiled steps are ES modules; a `.ts` one means the tests run the sources through tsx, whose
 * hooks reach a worker thread's require() but not its import().
 */
async function loadStepModule(url: string): Promise<Record<string, unknown>> {
  if (url.endsWith('.ts')) return createRequire(import.meta.url)(fileURLToPath(url)) as Record<string, unknown>;
  return import(url) as Promise<Record<string, unknown>>;
}

export default async function runContentTask(task: ContentTask | WarmTask): Promise<ContentResults[ContentTask['kind']] | null> {
  // The modules above are loaded: this worker is ready for the next task.
  if (task.kind === 'warm') return null;
  Atomics.store(new BigInt64Array(task.started), 0, BigInt(Date.now()));
  // Structured cloning delivers a plain Uint8Array; the parsers want a Buffer over the same memory.
  const raw = Buffer.from(task.raw.buffer, task.raw.byteOffset, task.raw.byteLength);
  switch (task.kind) {
    case 'analyze': {
      const analysis = messageAnalysis(await parseEmail(raw));
      if (!task.tagRules) return analysis;
      const { rules, envelope, budgetMs } = task.tagRules;
      const message = {
        read: false, tags: envelope.tags, attachmentCount: analysis.attachmentCount, inlineCount: analysis.inlineCount, codes: analysis.codes, size: envelope.size, receivedAt: envelope.receivedAt,
        search: searchFields({ ...analysis, envelopeFrom: envelope.envelopeFrom, recipients: envelope.recipients }, analysis.searchBody),
      };
      return { ...analysis, ruleTags: matchRules(rules, message, budgetMs) };
    }
    case 'headers':
      return headerSummary(raw);
    case 'view':
      return messageView(raw);
    case 'html':
      return htmlBody(raw);
    case 'attachment':
      return attachmentContent(raw, task.index);
    case 'renderHtml':
      return renderedHtml(raw);
    case 'renderText':
      return renderedText(raw);
    case 'checkStep': {
      // Loaded on a worker's first step of that check: the HTML check's CSS parser and caniemail data, say, cost memory a
      // worker that never runs it need not hold.
      const module = await loadStepModule(task.module);
      const step = module[task.exportName];
      if (typeof step !== 'function') throw new Error(`${task.module} exports no function ${task.exportName}`);
      return step(raw, ...task.args);
    }
    case 'parts':
      return messageParts(raw);
    case 'composeMessage': {
      // Loaded on a worker's first send: the composer is not needed by a worker that only parses captures.
      const { composeFromJson } = await import('../mime/compose-message.js');
      return transferringMessage(await composeFromJson(raw, task.dialect));
    }
  }
}
