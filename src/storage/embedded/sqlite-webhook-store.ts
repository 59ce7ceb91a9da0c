// WebhookStore on SQLite: webhooks, their delivery records, and the schedule of due attempts (one process).
import type Database from 'better-sqlite3';
import type { Delivery, DeliveryStatus, Webhook, WebhookEvent } from '../../domain/types.js';
import type { AttemptRecord, ClaimShares, CreateWebhookOutcome, NewDelivery, WebhookStore } from '../ports.js';
import { guarded, statementCache, type SqliteDatabase } from './sqlite-database.js';

interface WebhookRow { id: string; workspace_id: string; inbox_id: string | null; url: string; secret: string; created_at: number }
interface DeliveryRow {
  id: number; workspace_id: string; webhook_id: string; event: string; message_id: string; body: string; status: string;
  attempts: number; last_status: number | null; last_error: string | null; created_at: number; finished_at: number | null;
  next_attempt_at: number | null;
}

const toWebhook = (row: WebhookRow): Webhook => ({
  id: row.id, workspaceId: row.workspace_id, inboxId: row.inbox_id, url: row.url, secret: row.secret, createdAt: new Date(row.created_at),
});

const dateOrNull = (ms: number | null): Date | null => (ms === null ? null : new Date(ms));

const toDelivery = (row: DeliveryRow): Delivery => ({
  id: row.id,
  workspaceId: row.workspace_id,
  webhookId: row.webhook_id,
  event: row.event as WebhookEvent,
  messageId: row.message_id,
  body: row.body,
  status: row.status as DeliveryStatus,
  attempts: row.attempts,
  lastStatus: row.last_status,
  lastError: row.last_error,
  createdAt: new Date(row.created_at),
  finishedAt: dateOrNull(row.finished_at),
  nextAttemptAt: dateOrNull(row.next_attempt_at),
});

export class SqliteWebhookStore implements WebhookStore {
  private readonly sql: (sql: string) => Database.Statement;

  constructor(private readonly db: SqliteDatabase) {
    this.sql = statementCache(db);
  }

  createWebhook(webhook: Webhook, limit: number | null): Promise<CreateWebhookOutcome> {
    return guarded(() => this.db.transaction(() => {
      const count = this.sql('SELECT count(*) FROM webhooks WHERE workspace_id = ?').pluck().get(webhook.workspaceId) as number;
      if (limit !== null && count >= limit) return 'limit_reached';
      this.sql('INSERT INTO webhooks (id, workspace_id, inbox_id, url, secret, created_at) VALUES (?, ?, ?, ?, ?, ?)')
        .run(webhook.id, webhook.workspaceId, webhook.inboxId, webhook.url, webhook.secret, webhook.createdAt.getTime());
      return 'created';
    }).immediate());
  }

  listWebhooks(workspaceId: string): Promise<Webhook[]> {
    return guarded(() => (this.sql('SELECT * FROM webhooks WHERE workspace_id = ? ORDER BY created_at, id').all(workspaceId) as WebhookRow[]).map(toWebhook));
  }

  getWebhook(workspaceId: string, id: string): Promise<Webhook | null> {
    return guarded(() => {
      const row = this.sql('SELECT * FROM webhooks WHERE workspace_id = ? AND id = ?').get(workspaceId, id) as WebhookRow | undefined;
      return row ? toWebhook(row) : null;
    });
  }

  webhooksFor(workspaceId: string, inboxId: string): Promise<Webhook[]> {
    return guarded(() => (this.sql('SELECT * FROM webhooks WHERE workspace_id = ? AND (inbox_id IS NULL OR inbox_id = ?) ORDER BY created_at, id')
      .all(workspaceId, inboxId) as WebhookRow[]).map(toWebhook));
  }

  deleteWebhook(workspaceId: string, id: string): Promise<boolean> {
    // Deliveries go with it (ON DELETE CASCADE), pending ones included, so nothing is attempted for it again.
    return guarded(() => this.sql('DELETE FROM webhooks WHERE workspace_id = ? AND id = ?').run(workspaceId, id).changes === 1);
  }

  deleteWebhooksOfInbox(workspaceId: string, inboxId: string): Promise<number> {
    return guarded(() => this.sql('DELETE FROM webhooks WHERE workspace_id = ? AND inbox_id = ?').run(workspaceId, inboxId).changes);
  }

  enqueue(deliveries: NewDelivery[], dueAt: Date, keep: number): Promise<(number | null)[]> {
    return guarded(() => this.db.transaction(() => {
      const ids: (number | null)[] = [];
      for (const d of deliveries) {
        // A webhook deleted since the caller read it gets no delivery, which would only fail its foreign key.
        const inserted = this.sql(`INSERT INTO webhook_deliveries
            (workspace_id, webhook_id, event, message_id, body, status, attempts, created_at, next_attempt_at, due_at)
            SELECT ?, ?, ?, ?, ?, 'pending', 0, ?, ?, ? WHERE EXISTS (SELECT 1 FROM webhooks WHERE id = ?)`)
          .run(d.workspaceId, d.webhookId, d.event, d.messageId, d.body, dueAt.getTime(), dueAt.getTime(), dueAt.getTime(), d.webhookId);
        ids.push(inserted.changes === 1 ? Number(inserted.lastInsertRowid) : null);
        this.sql(`DELETE FROM webhook_deliveries WHERE webhook_id = ? AND status <> 'pending' AND id <
            (SELECT min(id) FROM (SELECT id FROM webhook_deliveries WHERE webhook_id = ? ORDER BY id DESC LIMIT ?))`)
          .run(d.webhookId, d.webhookId, keep);
      }
      return ids;
    }).immediate());
  }

  getDelivery(workspaceId: string, id: number): Promise<Delivery | null> {
    return guarded(() => {
      const row = this.sql('SELECT * FROM webhook_deliveries WHERE workspace_id = ? AND id = ?').get(workspaceId, id) as DeliveryRow | undefined;
      return row ? toDelivery(row) : null;
    });
  }

  listDeliveries(workspaceId: string, webhookId: string, limit: number): Promise<Delivery[]> {
    return guarded(() => (this.sql('SELECT * FROM webhook_deliveries WHERE workspace_id = ? AND webhook_id = ? ORDER BY id DESC LIMIT ?')
      .all(workspaceId, webhookId, limit) as DeliveryRow[]).map(toDelivery));
  }

  claimDue(now: Date, leaseMs: number, limit: number, shares?: ClaimShares): Promise<Delivery[]> {
    if (limit <= 0) return Promise.resolve([]);
    const skipped = JSON.stringify([...(shares?.skipWebhooks ?? [])]);
    return guarded(() => this.db.transaction(() => {
      // Each workspace offers its oldest due, as many as its room; an offer's turn is its place in that line, and
      // taking by turn, then by due time, alternates between workspaces. Every read is an index seek.
      const offers: { id: number; dueAt: number; turn: number }[] = [];
      for (const workspaceId of this.sql(`WITH RECURSIVE pending(workspace_id) AS (
            SELECT min(workspace_id) FROM webhook_deliveries WHERE due_at IS NOT NULL
            UNION ALL
            SELECT (SELECT min(workspace_id) FROM webhook_deliveries WHERE due_at IS NOT NULL AND workspace_id > pending.workspace_id)
            FROM pending WHERE pending.workspace_id IS NOT NULL)
          SELECT workspace_id FROM pending WHERE workspace_id IS NOT NULL`).pluck().all() as string[]) {
        const room = Math.min(shares?.workspaceRoom.get(workspaceId) ?? shares?.perWorkspace ?? limit, limit);
        if (room <= 0) continue;
        const due = this.sql(`SELECT id, due_at FROM webhook_deliveries
            WHERE workspace_id = ? AND due_at <= ? AND webhook_id NOT IN (SELECT value FROM json_each(?)) ORDER BY due_at, id LIMIT ?`)
          .all(workspaceId, now.getTime(), skipped, room) as { id: number; due_at: number }[];
        due.forEach((row, turn) => offers.push({ id: row.id, dueAt: row.due_at, turn }));
      }
      const chosen = offers.sort((a, b) => a.turn - b.turn || a.dueAt - b.dueAt || a.id - b.id).slice(0, limit).map((offer) => offer.id);
      if (chosen.length === 0) return [];
      const rows = this.sql(`UPDATE webhook_deliveries SET due_at = ?, claimed = 1 WHERE id IN (SELECT value FROM json_each(?)) RETURNING *`)
        .all(now.getTime() + leaseMs, JSON.stringify(chosen)) as DeliveryRow[];
      const place = new Map(chosen.map((id, index) => [id, index]));
      return rows.map(toDelivery).sort((a, b) => place.get(a.id)! - place.get(b.id)!);
    }).immediate());
  }

  defer(id: number, until: Date): Promise<void> {
    return guarded(() => {
      this.sql(`UPDATE webhook_deliveries SET due_at = ?, next_attempt_at = ?, claimed = 0 WHERE id = ? AND status = 'pending'`)
        .run(until.getTime(), until.getTime(), id);
    });
  }

  recordAttempt(id: number, attempt: AttemptRecord): Promise<void> {
    return guarded(() => {
      const finished = attempt.outcome !== 'retry';
      const next = finished ? null : (attempt.nextAttemptAt?.getTime() ?? attempt.at.getTime());
      this.sql(`UPDATE webhook_deliveries SET attempts = attempts + 1, last_status = ?, last_error = ?, status = ?,
          finished_at = ?, next_attempt_at = ?, due_at = ?, claimed = 0 WHERE id = ? AND status = 'pending'`)
        .run(attempt.status, attempt.error, finished ? attempt.outcome : 'pending', finished ? attempt.at.getTime() : null, next, next, id);
    });
  }

  releaseOwnClaims(now: Date): Promise<number> {
    return guarded(() => this.sql(`UPDATE webhook_deliveries SET due_at = ?, claimed = 0 WHERE claimed = 1 AND status = 'pending'`).run(now.getTime()).changes);
  }

  queueStats(): Promise<{ pending: number; oldestDueAt: Date | null }> {
    return guarded(() => {
      const row = this.sql(`SELECT count(*) AS pending, min(due_at) AS oldest FROM webhook_deliveries WHERE status = 'pending'`).get() as { pending: number; oldest: number | null };
      return { pending: row.pending, oldestDueAt: row.oldest === null ? null : new Date(row.oldest) };
    });
  }

  requeue(workspaceId: string, id: number, now: Date): Promise<'requeued' | 'not_finished' | null> {
    return guarded(() => this.db.transaction(() => {
      const status = this.sql('SELECT status FROM webhook_deliveries WHERE workspace_id = ? AND id = ?').pluck().get(workspaceId, id) as string | undefined;
      if (status === undefined) return null;
      if (status === 'pending') return 'not_finished';
      this.sql(`UPDATE webhook_deliveries SET status = 'pending', attempts = 0, last_status = NULL, last_error = NULL,
          finished_at = NULL, next_attempt_at = ?, due_at = ?, claimed = 0 WHERE id = ?`).run(now.getTime(), now.getTime(), id);
      return 'requeued';
    }).immediate());
  }
}
