// Types of the HTTP API and the values of its enums, generated from openapi.yaml by scripts/generate-api-types.ts (openapi-typescript): do not
// edit; run `npm run generate:api-types` after changing openapi.yaml (the unit tests fail while this file is stale).
export interface paths {
    "/v1/workspace": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The workspace the key belongs to */
        get: operations["getWorkspace"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Quota use this month and the plan's limits */
        get: operations["getUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/inboxes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** All inboxes of the workspace, oldest first */
        get: operations["listInboxes"];
        put?: never;
        /**
         * Create an inbox with its own SMTP credentials
         * @description The SMTP password is in this response only; it is stored hashed and cannot be shown again.
         */
        post: operations["createInbox"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/inboxes/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Inbox id */
                id: components["parameters"]["InboxId"];
            };
            cookie?: never;
        };
        /** One inbox */
        get: operations["getInbox"];
        put?: never;
        post?: never;
        /**
         * Delete an inbox and all of its messages
         * @description The webhooks scoped to the inbox are deleted with it (with their deliveries); workspace-wide ones stay.
         */
        delete: operations["deleteInbox"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/inboxes/{id}/credentials": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Inbox id */
                id: components["parameters"]["InboxId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Replace the SMTP password
         * @description The old password stops working at once, also for SMTP sessions that logged in with it.
         */
        post: operations["rotateInboxCredentials"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/inboxes/{id}/chaos": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Inbox id */
                id: components["parameters"]["InboxId"];
            };
            cookie?: never;
        };
        /**
         * The inbox's chaos settings in force
         * @description A new inbox has chaos disabled and every probability at 0.
         */
        get: operations["getInboxChaos"];
        /**
         * Replace the inbox's chaos settings whole
         * @description The body is the complete new settings: what it leaves out takes its default (a trigger left out never fires,
         *     a message left out is a text saying chaos refused). It is validated whole before anything is written, so a
         *     400 `invalid_request` changes nothing and its message names the offending field (e.g.
         *     `body.sender.code: must be one of 421, 450, ...`). Sessions on every node use the new settings from their
         *     next SMTP command.
         */
        put: operations["replaceInboxChaos"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/inboxes/{id}/chaos/test": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Inbox id */
                id: components["parameters"]["InboxId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Dry run — roll every stage once and report what a session would have met
         * @description Rolls each stage once, on its own and as if a session reached it, with the same roll and random source the
         *     SMTP server uses, and reports the reply the client would get: the trigger's where something fires, the
         *     success reply where nothing does (at `connection` that is the login's 235, since the stage is decided at
         *     AUTH). Nothing is sent, stored or counted, so a `read` key may call it (`x-read-only`); a session still sends
         *     the CSRF token with it, as with every POST (403 `csrf_failed`).
         */
        post: operations["testInboxChaos"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/inboxes/{id}/messages": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Inbox id */
                id: components["parameters"]["InboxId"];
            };
            cookie?: never;
        };
        /**
         * Messages of an inbox, newest first
         * @description Pages are walked with `cursor`: pass the previous page's `next_cursor`. Paging is stable while mail
         *     arrives: newer messages never shift later pages, so walking every page visits each message that existed
         *     when the first page was read exactly once. A cursor is tied to the inbox and to the search parameters it
         *     came from; using it with others answers 400 `invalid_cursor`.
         *
         *     A page examines at most SANDBOX_SCAN_ROWS_PER_PAGE (default 5000) of the inbox's messages, newest first
         *     from the cursor. When a search selects few of them, a page can stop there with fewer items than `limit`,
         *     even none, and a `next_cursor` to go on from: keep paging until a page comes without `next_cursor`.
         *
         *     `q`, `from`, `to`, `subject` and `since` combine with AND; see the `SearchQuery` parameter for the language.
         */
        get: operations["listMessages"];
        put?: never;
        post?: never;
        /** Delete every message of the inbox, keeping the inbox and its credentials */
        delete: operations["clearInbox"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/inboxes/{id}/messages/count": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Inbox id */
                id: components["parameters"]["InboxId"];
            };
            cookie?: never;
        };
        /**
         * How many of the inbox's messages a search matches, and how many of those are unread
         * @description Counts the inbox's messages that `q`, `from`, `to`, `subject` and `since` select (the same parameters as
         *     the list, with the same meaning and limits, combined with AND), and how many of those are not marked read,
         *     so a client can say "2 of 29 match" without paging. Without any of them it counts every message of the
         *     inbox, as the inbox's `message_count` and `unread_count` do.
         *
         *     A count is a search: it runs off the event loop with the same time budget as a list page
         *     (SANDBOX_QUERY_TIMEOUT_MS, default 2 s), takes its turn with the workspace's other searches (429
         *     `too_many_queries`), and one that overruns is stopped and answers 422 `query_too_expensive`. Unlike a page,
         *     it is not cut at SANDBOX_SCAN_ROWS_PER_PAGE: it examines every message the search selects, in one query,
         *     which costs less than paging through the list and counting its items. An invalid search answers 400
         *     `invalid_query` (or `invalid_request` for an empty `from`, `to` or `subject`, or a malformed `since`),
         *     exactly as the list does.
         */
        get: operations["countMessages"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/inboxes/{id}/messages/wait": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Inbox id */
                id: components["parameters"]["InboxId"];
            };
            cookie?: never;
        };
        /**
         * The newest matching message now, or the first matching one to arrive within the timeout
         * @description Answers at once with the newest message that `q`, `from`, `to`, `subject` and `since` select (the same
         *     filters as the list, combined with AND). When none exists yet, the request stays open and answers with the
         *     first matching message to arrive, as soon as it is stored; after `timeout` seconds without one it answers
         *     404 `wait_timeout`.
         *
         *     Nothing that lands while the request is being served is missed: the server subscribes to the inbox's
         *     arrivals before it looks for an existing match, so a message stored between the two steps is caught by the
         *     subscription. A wait served by one node sees messages captured on any node. Tag rules have run before the
         *     message is visible here, so `tags` already carries their tags.
         *
         *     To wait only for mail that arrives from now on, pass `since`: the `since` of `GET /v1/inboxes/{id}/mark`
         *     taken before the test triggers the mail (the server's clock, so a client whose clock runs ahead or behind
         *     misses nothing), or a time of the client's own. A client that goes away frees its subscription at once.
         *
         *     A wait that times out says what came instead: its 404 `wait_timeout` carries `error.explain`
         *     (WaitExplanation), the inbox's most recent messages, at most 10, each with the terms of the filter it
         *     failed.
         *
         *     A workspace may have SANDBOX_WAITS_PER_WORKSPACE (default 64) waits open on a server node at once; one
         *     more answers 429 `too_many_waits` (on the cluster profile the count is per node, each node holding the
         *     setting divided by SANDBOX_CLUSTER_NODES).
         */
        get: operations["waitForMessage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/inboxes/{id}/messages/wait-many": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Inbox id */
                id: components["parameters"]["InboxId"];
            };
            cookie?: never;
        };
        /**
         * The newest `count` matching messages, in arrival order, once that many exist or arrive within the timeout
         * @description As `GET …/messages/wait`, for `count` messages: answers once `count` messages that `q`, `from`, `to`,
         *     `subject` and `since` select exist (those already stored count), with the newest `count` of them, oldest
         *     first (the order they arrived in). The same subscription-before-lookup rule holds, so a message that lands
         *     while the request is served is counted; arrivals on any node count. After `timeout` seconds with fewer it
         *     answers 404 `wait_timeout`, whose `error.explain` says how many matched (`matched` of `wanted`) and lists
         *     the inbox's most recent messages with the terms each failed. Waits of a workspace share the
         *     SANDBOX_WAITS_PER_WORKSPACE places with `wait` and `wait-none`.
         */
        get: operations["waitForMessages"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/inboxes/{id}/messages/wait-none": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Inbox id */
                id: components["parameters"]["InboxId"];
            };
            cookie?: never;
        };
        /**
         * Succeeds when no matching message exists or arrives within the timeout; answers 409 with the one that did
         * @description The opposite of `GET …/messages/wait`, for a test that proves a mail is *not* sent: holds for `timeout`
         *     seconds and then answers 200 when no message that `q`, `from`, `to`, `subject` and `since` select was
         *     stored, neither before the request nor during it (pass `since`, e.g. from `GET /v1/inboxes/{id}/mark`, to
         *     ask only about mail from a point on). As soon as one is found it answers 409 `unexpected_message`, whose
         *     `error.found` is that message (the newest one, when several already existed). The same subscription rule
         *     and the same SANDBOX_WAITS_PER_WORKSPACE places as `wait` apply; arrivals on any node count.
         */
        get: operations["waitForNoMessage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/inboxes/{id}/mark": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Inbox id */
                id: components["parameters"]["InboxId"];
            };
            cookie?: never;
        };
        /**
         * A point in the inbox's mail by the server's clock: "from now on" for waits, lists and the stream
         * @description Changes nothing. `since` is the server's clock now: passed as `since` to a wait or a list it selects the
         *     mail stored from this point on, whatever the client's clock says. `last_event_id` is the inbox's stream
         *     position now: sent as `Last-Event-ID` to `GET …/events`, the stream starts after the messages already
         *     there. Take the mark before triggering the mail a test waits for.
         */
        get: operations["markInbox"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/inboxes/{id}/events": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Inbox id */
                id: components["parameters"]["InboxId"];
            };
            cookie?: never;
        };
        /**
         * Server-sent events, one per message arriving in the inbox, resumable without gaps
         * @description A `text/event-stream` ([HTML Living Standard, server-sent events](https://html.spec.whatwg.org/multipage/server-sent-events.html))
         *     that stays open and sends one event per message stored in the inbox, in the order they were stored,
         *     whichever node captured them. Any standard EventSource client can read it.
         *
         *     **Events**
         *     - `ready`: the first event of every stream. `id` is the position the stream starts from (the
         *       `Last-Event-ID` given, or else the newest arrival), `data` is `{"inbox_id": "..."}`. A client that
         *       drops before any message arrives thus still resumes from where it connected.
         *     - `message`: a new email. `data` is its `MessageSummary` as one line of JSON, as it stands when the event is
         *       sent (tag rules have already run; a message read or re-tagged since it arrived shows that). `id` is the
         *       message's stream cursor.
         *     - `reset`: the stream cannot resume from the `Last-Event-ID` given, because the cursor is older than what the
         *       server keeps for the inbox (the newest `SANDBOX_STREAM_RESUME_LIMIT` arrivals, 10,000 by default) or is
         *       not one this inbox's log has reached. `data` is `{"reason": "cursor_expired", "message": "..."}` and `id`
         *       is the cursor of the newest arrival: re-list the inbox with `GET /v1/inboxes/{id}/messages` to catch up,
         *       then keep reading; the stream carries on from that point.
         *
         *     The `ready` event carries `retry: 2000`, the reconnection delay suggested to clients. Comment lines
         *     (`: heartbeat`) are sent every
         *     `SANDBOX_STREAM_HEARTBEAT_SECONDS` (15 by default) so proxies keep the connection open. The server ends a
         *     stream after `SANDBOX_STREAM_MAX_SECONDS` (1800, about 30 minutes), and ends the stream of a client that
         *     reads too slowly to keep up; in both cases the client reconnects with `Last-Event-ID` and loses nothing.
         *
         *     A workspace may have SANDBOX_STREAMS_PER_WORKSPACE (default 32) streams open on a server node at once;
         *     one more answers 429 `too_many_streams` (on the cluster profile the count is per node, each node holding
         *     the setting divided by SANDBOX_CLUSTER_NODES).
         *
         *     **Cursors.** A cursor is opaque; compare and store it only as a string. Each inbox numbers its arrivals
         *     1, 2, 3... in the order they were stored, and a cursor names one such position. Reconnecting with header
         *     `Last-Event-ID: <cursor>` resumes with exactly the messages stored after it, in order, with no gap and no
         *     duplicate, also when the reconnect reaches another node and for messages that arrived while the client
         *     was away. Without the header a stream starts at the newest arrival and sends only what arrives later.
         *     A cursor of another inbox, or one the server did not issue, answers 400 `invalid_cursor`.
         *
         *     **Not reported:** deletions, read-state and tag changes. The stream reports arrivals; a message deleted
         *     before its event is sent is skipped. Re-list to see the current state of older messages.
         */
        get: operations["streamInboxEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/messages/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Message id */
                id: components["parameters"]["MessageId"];
            };
            cookie?: never;
        };
        /** One message with its bodies, headers, links and attachments */
        get: operations["getMessage"];
        put?: never;
        post?: never;
        /** Delete one message, its raw source and everything derived from it */
        delete: operations["deleteMessage"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/messages/{id}/raw": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Message id */
                id: components["parameters"]["MessageId"];
            };
            cookie?: never;
        };
        /** The original message source, byte for byte as received */
        get: operations["getMessageRaw"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/inboxes/{id}/send": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Inbox id */
                id: components["parameters"]["InboxId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Compose a message and capture it as if it arrived over SMTP
         * @description The message is built as MIME by nodemailer's composer: Bcc recipients reach the envelope (`recipients`)
         *     but not the headers. `tags` are applied at capture, before tag rules add theirs. It counts toward the
         *     monthly quota (402 `quota_reached`) and passes the same pipeline as SMTP mail; nothing is delivered.
         *     The body may be as large as the maximum message size allows (attachments are base64); it is parsed and
         *     composed on a content worker, and one that overruns the content limits answers 422 `analysis_limit`.
         *     A send is a transaction like an SMTP one: while the workspace has SANDBOX_TRANSACTIONS_PER_WORKSPACE
         *     (default 64) sends and SMTP transactions open, or the server SANDBOX_MAX_TRANSACTIONS (default 256), or the
         *     message would take the bytes held for them past SANDBOX_BUFFERED_PER_WORKSPACE (default 64 MiB) or
         *     SANDBOX_MAX_BUFFERED (default 256 MiB), it answers 503 `too_many_transactions` with `Retry-After: 1`.
         */
        post: operations["sendMessage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/inboxes/{inbox_id}/messages/latest/view.html": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                inbox_id: components["parameters"]["ViewInboxId"];
            };
            cookie?: never;
        };
        /**
         * The inbox's newest message, rendered as a page
         * @description The newest message of the inbox by `received_at` (narrowed by `q` when given), as `view.html` of that
         *     message renders it. 404 `not_found` when the inbox is empty or nothing matches `q`.
         */
        get: operations["viewLatestHtml"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/inboxes/{inbox_id}/messages/latest/view.txt": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                inbox_id: components["parameters"]["ViewInboxId"];
            };
            cookie?: never;
        };
        /**
         * The inbox's newest message, as text
         * @description The newest message of the inbox by `received_at` (narrowed by `q` when given), as `text/plain;
         *     charset=utf-8`: its text part as sent, or, when it has none, the text of its HTML (links written after
         *     their words, images left out). 404 `not_found` when the inbox is empty or nothing matches `q`.
         */
        get: operations["viewLatestText"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/inboxes/{inbox_id}/messages/{message_id}/view.html": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                inbox_id: components["parameters"]["ViewInboxId"];
                /** @description A message of this inbox (`latest` names the views above). */
                message_id: components["parameters"]["ViewMessageId"];
            };
            cookie?: never;
        };
        /** One message, rendered as a page */
        get: operations["viewMessageHtml"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/messages/{id}/html": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Message id */
                id: components["parameters"]["MessageId"];
            };
            cookie?: never;
        };
        /**
         * The HTML body, served under a restrictive Content-Security-Policy
         * @description The HTML body as text/html (`cid:` images inlined as `data:` URIs) under the `HtmlContentSecurityPolicy`:
         *     no scripts, no plugins, an opaque origin, and no remote images, stylesheets or fonts unless `remote=1`.
         *     404 when there is no HTML part.
         */
        get: operations["getMessageHtml"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/messages/{id}/links": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Message id */
                id: components["parameters"]["MessageId"];
            };
            cookie?: never;
        };
        /**
         * The http(s) links of the message, unique, in order of appearance (HTML hrefs first)
         * @description As many as fit in 262,144 characters together, as the message's detail lists them (its `truncated` says when there are more).
         */
        get: operations["getMessageLinks"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/messages/{id}/link-check": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Message id */
                id: components["parameters"]["MessageId"];
            };
            cookie?: never;
        };
        /**
         * Requests every http(s) URL of the message and reports each one's answer
         * @description The URLs are every unique http(s) URL of the HTML body (`a[href]`, `area[href]`, `img[src]`, `srcset`,
         *     `background` attributes, stylesheet `link`s, CSS `url()` and `@import` in `<style>` and `style=""`) and of
         *     the text body, in order of first appearance, HTML first. The first 100 are checked; `Found` counts them all
         *     and `Capped` says when some were left out.
         *
         *     Each URL is requested with HEAD; when HEAD is answered with a status of 400 or more (many servers refuse
         *     HEAD with 405, 403, 501 or 400 while serving GET) or the connection breaks off without an answer, with GET,
         *     whose body is not read. A link has 10 seconds in all (its redirects included); at most 10 links are
         *     requested at once, at most 2 of them from one host (name and port). Once a host has let a link's 10 seconds
         *     run out, its links not yet requested are reported as unanswered without a request, so a host that never
         *     answers costs the check 10 seconds, not 10 seconds per link.
         *
         *     Redirects (301, 302, 303, 307, 308) are reported as they are unless `follow=true`; then up to 5 are followed,
         *     each hop requested and judged anew, and `FinalURL` and `Redirects` say where it ended.
         *
         *     Only public addresses are requested, with the policy webhooks use: a URL whose host is, or resolves to, a
         *     loopback, private, link-local, metadata or otherwise reserved address (in any spelling, e.g. `127.1`,
         *     `2130706433`, `[::ffff:127.0.0.1]`) is refused before any connection, at every hop and at connect time.
         *     A name is refused as `refused: the name <name> resolves to a non-public address`, never saying which address.
         *     A server started with `SANDBOX_LINK_CHECK_ALLOW_PRIVATE=1` (local development) requests those too.
         *
         *     Only ports 80, 443 and 8000-8999 are requested (the server's `SANDBOX_LINK_CHECK_PORTS`; a URL without a port
         *     uses its scheme's); another is reported as `refused: port <port> is not checked (only ports 80, 443 and
         *     8000-8999 are)`, with no lookup and no connection.
         *
         *     Names are looked up with the server's name servers (`SANDBOX_DNS_SERVERS`), each lookup within
         *     `SANDBOX_DNS_TIMEOUT_MS` × `SANDBOX_DNS_TRIES` (4 s by default; past it `unreachable: the name <name> got no
         *     answer from the name server in time`), taking turns between workspaces. A workspace has at most
         *     `SANDBOX_DNS_LOOKUPS_PER_WORKSPACE` (16) lookups running and waiting, of its link checks, HTML checks,
         *     authentication checks and webhooks together; a link whose lookup would exceed that, or the server's queue (`SANDBOX_DNS_LOOKUP_QUEUE`),
         *     is not requested and is reported as `not checked: the lookup of <name> was refused: <why>; try again shortly`.
         *
         *     Outcomes are kept for 30 seconds per workspace, URL and `follow`, so checking again at once repeats no
         *     request, and a followed check never reuses a plain one's outcome. `not checked` outcomes are not kept.
         *
         *     With `skip_one_time=true`, links that look like ones a request could spend (a password reset, an email
         *     verification, a magic sign-in, an invitation, an unsubscribe: a path or parameter saying so, a parameter
         *     such as `token`, `code`, `sig` or `*_token`, or a long generated-looking value) are not requested. Each is
         *     reported with `StatusCode` 0 and `Status` `skipped: looks like a one-time link (<why>); not requested`, and
         *     is not counted in `Errors`. The dashboard asks for this when it checks an inbox's links by itself.
         */
        get: operations["checkMessageLinks"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/messages/{id}/html-check": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Message id */
                id: components["parameters"]["MessageId"];
            };
            cookie?: never;
        };
        /**
         * How well email clients support the HTML and CSS the message uses, per caniemail.com's data
         * @description Reads the HTML body with an HTML parser and its CSS (`<style>` elements, `style` attributes and up to five
         *     `<link rel=stylesheet>` stylesheets) with a CSS parser, and reports every caniemail feature it uses: HTML
         *     elements and attributes, CSS properties and values, at-rules and media features, selectors, pseudo-classes and
         *     -elements, units, functions and image formats. Constructs no email client runs (`<script>`, `on…` event
         *     handler attributes, `javascript:` URLs) are reported by this service's own rules (`Source: mail-sandbox`).
         *
         *     Linked stylesheets are fetched from public addresses and link-check ports only, their names looked up in the
         *     workspace's turn (as checked links are), each within 5 s and 512 KiB,
         *     following at most three redirects; a relative href is resolved against `<base href>`. `Stylesheets` says which
         *     were checked and why others were not. Reading the message does not mark it read. The analysis runs in the
         *     content worker pool within the per-message limits (422 `analysis_limit` when it overruns).
         */
        get: operations["getMessageHtmlCheck"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/messages/{id}/attachments/{index}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Message id */
                id: components["parameters"]["MessageId"];
                /** @description Position in the message's attachments array, from 0 */
                index: components["parameters"]["AttachmentIndex"];
            };
            cookie?: never;
        };
        /** One attachment as a download, with its file name and its content type (unless a browser could run it) */
        get: operations["getAttachment"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/messages/{id}/attachments/{index}/thumb": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Message id */
                id: components["parameters"]["MessageId"];
                /** @description Position in the message's attachments array, from 0 */
                index: components["parameters"]["AttachmentIndex"];
            };
            cookie?: never;
        };
        /**
         * A PNG thumbnail (at most 240 px on either side) of an image attachment
         * @description Made once, in a process of its own under SANDBOX_THUMBNAIL_MEMORY_MB (default 512), and kept. At most SANDBOX_THUMBNAIL_CONCURRENCY (default 1) are made at once over the server, each within the time limit per task. Only PNG, JPEG, GIF and WebP are decoded, by declared type and by the bytes' own signature (never SVG, TIFF, HEIF/AVIF or PDF). An attachment of another type or format, not decodable, of more than SANDBOX_THUMBNAIL_MAX_PIXELS pixels (width × height, default 40,000,000), or whose decode passes the memory or time limit has no thumbnail: 400 `not_an_image`, with a message saying which. Why is kept too: asking again gets the same answer without decoding again.
         */
        get: operations["getAttachmentThumb"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/messages/{id}/spam-check": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Message id */
                id: components["parameters"]["MessageId"];
            };
            cookie?: never;
        };
        /**
         * Scores the message with SpamAssassin (spamd) and lists the rules that fired
         * @description The message's raw source, exactly as captured, is sent to the server's spamd (`SANDBOX_SPAMD_URL`) on every
         *     call; nothing is cached and the message is not marked read. `Score`, `RequiredScore` and each rule's `Score`
         *     are the numbers spamd reports (it prints one decimal, and rule scores of 10 or more as whole numbers); the
         *     threshold is spamd's own `required_score`, not a fixed one. A server without spamd answers 400
         *     `not_configured`; spamd unreachable, slower than `SANDBOX_SPAMD_TIMEOUT_MS` (default 10 s), or answering
         *     anything but a report answers 503 `spam_engine_unavailable`. Messages larger than `SANDBOX_SPAMD_MAX_BYTES`
         *     (default 10 MiB) are not sent and answer 422 `analysis_limit`.
         */
        get: operations["spamCheck"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/messages/{id}/auth-check": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Message id */
                id: components["parameters"]["MessageId"];
            };
            cookie?: never;
        };
        /**
         * Whether the message's sender authentication would hold up at a receiving server (DKIM, DMARC alignment, ARC; SPF as a hint)
         * @description Reads the raw message exactly as captured, in the content worker pool, and verifies it with `mailauth`:
         *
         *     - **DKIM**: every `DKIM-Signature` field, top first, the first 10 of them (`Dkim.Found` counts them all and
         *       `Dkim.Capped` says when some were not verified; the others are left out of the copy the ten are verified on).
         *       Each gets a `Result` (RFC 8601's words) and, unless it passes, a `Reason` in plain words: `fail` (the body
         *       hash does not match: the body changed after signing; the signature does not verify: a signed header field
         *       changed, or the key published is not the one it was signed with; the signature expired; `l=` claims more
         *       body than there is), `permerror` (the signature cannot be read: a tag missing or malformed, `d=` not a domain
         *       name, `h=` without From; no key record at `<s>._domainkey.<d>`, as with a wrong selector; a key record
         *       that is not a usable key), `temperror` (the key could not be looked up now), `policy` (an RSA key under
         *       1,024 bits), `neutral` (anything else that stopped the verification). A header field the signature does not
         *       cover (`h=`) may change without failing it: `UnsignedHeaders` names those present that RFC 6376 §5.4.1
         *       says to sign.
         *     - **DMARC**: the From domain's record (`_dmarc.<domain>`, else its organizational domain's) and its policy,
         *       and whether a passing signature's `d=` aligns with the From domain, relaxed (the same organizational domain)
         *       or strict (the same domain) as the record's `adkim=` asks. Only DKIM counts here: SPF alignment is not
         *       evaluated, since the message came from a test client.
         *     - **ARC**: the chain the message carries (RFC 8617), verified, and each set listed.
         *     - **Authentication-Results**: the fields the message already carries, parsed (RFC 8601). They are claims
         *       written by whoever sent or relayed the message, not verified here.
         *     - **SPF**: only a hint. The message reached the sandbox from a test client, so no SPF verdict is given; a
         *       receiving server checks the address of the server that hands it the message against the envelope sender's
         *       domain's record, which is shown with its terms.
         *
         *     `Verdict` sums it up for a badge: `pass` when a signature passes and aligns with the From domain (as DMARC
         *     would on DKIM alone), `fail` when none does, `temperror` when a lookup that could change that failed for now,
         *     `none` when the message carries no signature.
         *
         *     DNS: the keys and records are looked up as TXT records with the server's name servers (`SANDBOX_DNS_SERVERS`),
         *     each within `SANDBOX_DNS_TIMEOUT_MS` × `SANDBOX_DNS_TRIES`, in the workspace's turn and within its share of
         *     lookups (`SANDBOX_DNS_LOOKUPS_PER_WORKSPACE`, shared with link checks, HTML checks and webhooks), four at a
         *     time, at most 24 names per check and all within 10 s. Without DNS (an offline CI) the lookups fail at once
         *     or at their time limit and the answer says `temperror` with the reason; it never waits longer. Names that are
         *     not domain names are not looked up. `Lookups` counts the names looked up.
         *
         *     Nothing is cached: every call verifies afresh, so a key published after the capture counts. The message is
         *     not marked read. Search has no `has:dkim-pass`: a verdict needs DNS lookups, which a capture does not wait
         *     for (250 means stored, at the speed of the disk, never of a sender's name servers), and it changes as keys
         *     and records change, so a verdict stored at capture would go stale.
         *
         *     Strings the message or a DNS record holds (domains, header names, records, Authentication-Results) are as
         *     written, cut at 1,000 characters; lists are cut at 100 entries (Authentication-Results fields at 20, their
         *     results at 50, ARC sets at 50).
         */
        get: operations["getMessageAuthCheck"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/messages/{id}/read": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Message id */
                id: components["parameters"]["MessageId"];
            };
            cookie?: never;
        };
        get?: never;
        /** Mark the message read */
        put: operations["markRead"];
        post?: never;
        /** Mark the message unread */
        delete: operations["markUnread"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/messages/batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Read, unread, delete, tag or untag many messages at once
         * @description Choose messages by `ids` (at most 1000), by `query` (the q language), or by both; with both, only the
         *     listed ids that also match the query. `inbox_id` narrows either to one inbox; without it the whole
         *     workspace is searched. Ids that do not exist or belong to another workspace are ignored. At least one of
         *     ids and query is required. `tags` is required for tag and untag and refused for the other actions.
         *
         *     `affected` is exact: the number of messages whose state changed. A message already read does not count
         *     for `read`, one that already has every tag does not count for `tag`.
         *
         *     The messages are selected and changed in chunks of SANDBOX_BATCH_CHUNK_SIZE (default 250), each chunk
         *     selected by a search with its own time budget (422 `query_too_expensive` when one overruns; chunks before
         *     it stay changed) and written in a short step of its own, so captures to the workspace go on meanwhile.
         *     A batch is therefore not atomic: a message changed by another request between its chunk's selection and
         *     write is written as selected.
         */
        post: operations["batchMessages"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/messages/{id}/tags": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Message id */
                id: components["parameters"]["MessageId"];
            };
            cookie?: never;
        };
        get?: never;
        /** Replace the message's tags */
        put: operations["setMessageTags"];
        /** Add one tag to the message */
        post: operations["addMessageTag"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/messages/{id}/tags/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Message id */
                id: components["parameters"]["MessageId"];
                /** @description A tag name, URL-encoded; compared case-insensitively */
                name: components["parameters"]["TagNameParam"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove one tag from the message (404 when the message does not have it) */
        delete: operations["removeMessageTag"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tags": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every tag of the workspace with its colour and message count, by name */
        get: operations["listTags"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tags/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A tag name, URL-encoded; compared case-insensitively */
                name: components["parameters"]["TagNameParam"];
            };
            cookie?: never;
        };
        get?: never;
        /**
         * Rename and/or recolour a tag
         * @description Renaming applies to every message that has the tag; renaming onto an existing tag merges the two (a
         *     message that had both keeps one), and the existing tag's chosen colour wins. `color` is any CSS colour;
         *     an empty string returns the tag to its automatic colour.
         */
        put: operations["updateTag"];
        post?: never;
        /** Remove the tag from every message; the messages stay */
        delete: operations["deleteTag"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The workspace's webhooks, oldest first, without their secrets */
        get: operations["listWebhooks"];
        put?: never;
        /**
         * Create a webhook; its secret is in this response only
         * @description `url` must be an `https` URL of a public address: a literal IP address or a name, and every address it
         *     resolves to must be public unicast. Loopback, private, link-local (169.254.169.254 included), carrier-grade NAT,
         *     unspecified, multicast, reserved and documentation ranges, IPv4-mapped, IPv4-compatible, NAT64, 6to4 and
         *     Teredo IPv6 forms are refused with 400 `webhook_target_forbidden`, also when spelled oddly (`127.1`,
         *     `2130706433`, `0x7f000001`, `017700000001`); a name with a non-public address is refused as `url: the name
         *     <name> resolves to a non-public address`, without saying which. Every delivery attempt resolves and checks the
         *     name again (with the server's name servers, in the workspace's turn) and connects only to the checked address. A server started with `SANDBOX_WEBHOOK_ALLOW_PRIVATE=1` (local
         *     development) allows private targets and plain `http`.
         *
         *     `inbox_id` null or absent: events of every inbox of the workspace. A webhook scoped to an inbox is deleted
         *     with the inbox. An unknown `inbox_id` answers 404; more
         *     webhooks than the plan's `webhook_limit` answer 402 `limit_reached`.
         */
        post: operations["createWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Webhook id */
                id: components["parameters"]["WebhookId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a webhook and its deliveries; pending deliveries are not attempted again */
        delete: operations["deleteWebhook"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Webhook id */
                id: components["parameters"]["WebhookId"];
            };
            cookie?: never;
        };
        /** The webhook's last 50 deliveries, newest first */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Webhook id */
                id: components["parameters"]["WebhookId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Queue a webhook.test delivery to this webhook
         * @description The delivery is made like any other (signed, retried on failure) with the body `WebhookTestEvent`; its
         *     record has `event` `webhook.test` and `message_id` `""`.
         */
        post: operations["testWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-deliveries/{id}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Delivery id */
                id: number;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Queue a finished delivery again, now, with a fresh budget of eight attempts
         * @description Only a finished delivery (`delivered` or `failed`) can be retried: it becomes `pending` with `attempts` 0,
         *     due at once, and is sent with the same body and delivery id. A delivery still `pending` already has
         *     attempts scheduled and answers 409 `delivery_pending` (its `next_attempt_at` says when the next one is due).
         */
        post: operations["retryWebhookDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tag-rules": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Tag rules of the workspace, oldest first */
        get: operations["listTagRules"];
        put?: never;
        /**
         * Create a rule that tags matching messages as they arrive
         * @description Rules run when a message arrives, before it is visible to lists, waits, streams or webhooks. They do not
         *     touch messages already stored. An invalid query is refused with 400 `invalid_query`; an unknown inbox_id
         *     with 404. A workspace may have its plan's `tag_rule_limit` rules (free 10, team 100, unlimited 500); one
         *     more answers 402 `limit_reached`.
         *
         *     Rules are matched in the worker that parses the arriving message, each query parsed once per version of
         *     the rule, within SANDBOX_TAG_RULE_BUDGET_MS (default 500) per message: rules not reached by then give no
         *     tags to that message (the server logs how many were skipped).
         */
        post: operations["createTagRule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tag-rules/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Tag rule id */
                id: string;
            };
            cookie?: never;
        };
        get?: never;
        /** Replace a rule's inbox, query and tags */
        put: operations["replaceTagRule"];
        post?: never;
        /** Delete a rule; messages it tagged keep their tags */
        delete: operations["deleteTagRule"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/session": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign in with email and password; sets the session cookie
         * @description Answers 201 with the signed-in person and sets the `sbx_session` cookie (`HttpOnly`, `SameSite=Lax`, `Path`
         *     the base path, `Secure` when the service is reached over https). A wrong password and an unknown email get
         *     the same 401 `invalid_credentials`, in the same time. Every attempt is reserved before its password is
         *     checked, so however many arrive at once, at most these are checked (past them 429 `rate_limited` with
         *     `Retry-After` until the window has passed, right password or not; a right one is not counted):
         *
         *     - from a browser this account does not know: 20 wrong attempts in 15 minutes from one client address over all
         *       accounts and one-time links; 5 for this account from one address; and **10 a minute for this account from
         *       every such browser together**, however many addresses they use (the account-wide rate). A right password
         *       gives its attempt back but does not reset the account-wide count, so the owner getting in hands a crowd of
         *       guessers nothing;
         *     - from a browser that signed in to this account before: 5 wrong in 15 minutes for that browser alone, and none
         *       of the limits above. A right password sets the **device cookie** `sbx_device` (`HttpOnly`,
         *       `SameSite=Strict`, `Path` the base path + `/v1/session`, `Secure` over https, kept 90 days): per account,
         *       a random id signed by the server (HMAC) with the email and when its password was set, so only a right
         *       password earns one, it holds no email, and a new password makes every browser's token for the account
         *       worthless. Up to 5 accounts' tokens share the cookie. This is how the owner still gets in while a crowd is
         *       throttled (OWASP's device cookies).
         *
         *     At most two password checks run at once on a server, with a short queue that takes turns between client
         *     addresses; a full queue answers 503 `server_busy` (and an address with four checks in it 429), both with
         *     `Retry-After: 1`. A person who belongs
         *     to no workspace gets 403 `no_workspace`. `workspace_id` picks the workspace the session starts in (the
         *     person's oldest membership when absent). When the request carries an `Origin` header it must be this
         *     service's origin (403 `csrf_failed`).
         */
        post: operations["signIn"];
        /** Sign out; ends this session and clears the cookie */
        delete: operations["signOut"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The signed-in person, the session's workspace with their role, their workspaces, and the CSRF token */
        get: operations["getMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/me/workspace": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Make another of the person's workspaces the session's workspace
         * @description Every later request of this session (the `/v1` API included) acts in that workspace with the person's role there. A workspace the person does not belong to answers 404.
         */
        put: operations["switchWorkspace"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/me/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Change the person's password; every other session of theirs ends
         * @description `current_password` wrong answers 401 `invalid_credentials` (and counts as a failed sign-in attempt, under a
         *     limit of this session's own: 5 in 15 minutes, so a crowd guessing the account does not hold it up). The new
         *     password must be 10 to 1024 characters and differ from the email. Every other session of the person ends at
         *     once, on every node; this one continues.
         */
        put: operations["changePassword"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/me/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The person's live sessions, newest first */
        get: operations["listSessions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/me/sessions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** End one of the person's sessions (this one too, which is signing out) */
        delete: operations["endSession"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The workspace's members, oldest first */
        get: operations["listMembers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/members/{email}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The member's email */
                email: string;
            };
            cookie?: never;
        };
        get?: never;
        /**
         * Change a member's role
         * @description Admins may make a member an admin or an admin a member; only owners may make someone an owner or change an
         *     owner's role (403 `role_required` otherwise). Demoting the last owner answers 409 `last_owner`.
         */
        put: operations["changeMemberRole"];
        post?: never;
        /**
         * Remove a member from the workspace, or leave it (your own email)
         * @description Anyone may leave (remove their own email). Admins may remove members and admins; only owners may remove an
         *     owner (403 `role_required`). The last owner cannot leave or be removed (409 `last_owner`). The removed
         *     person's sessions in this workspace end.
         */
        delete: operations["removeMember"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/invitations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The workspace's invitations, newest first (pending, accepted, revoked and expired ones of the last 90 days) */
        get: operations["listInvitations"];
        put?: never;
        /**
         * Invite a person by email; the one-time link is in this response only
         * @description The link (`url`) works once, for SANDBOX_INVITATION_TTL_HOURS (default 72). Nothing is emailed: hand the link
         *     over yourself. Only owners may invite an owner (403 `role_required`). An email that is already a member
         *     answers 409 `already_exists`; when members plus pending invitations would pass the plan's `member_limit`,
         *     402 `limit_reached`. A new invitation for an email with a pending one revokes the older one.
         */
        post: operations["createInvitation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/invitations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke a pending invitation; its link stops working */
        delete: operations["revokeInvitation"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/invitations/lookup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * What an invitation link is for, before accepting it
         * @description Takes the token from the link's fragment (`#token=...`; a fragment never reaches servers or logs). A used,
         *     revoked, expired or unknown token answers 400 `invalid_link`. Throttled per client address like sign-in.
         *     It says nothing about the account behind the email (whether one exists, here or anywhere): that is not
         *     the inviter's to learn.
         */
        post: operations["lookUpInvitation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/invitations/accept": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Accept an invitation, by setting a password (new account) or with the account's password
         * @description An invitation proves nothing about who holds its link (the inviting admins have it too), so accepting never
         *     sets the password of an account that exists, and it answers alike whatever the email has: no account, an
         *     account with a password, or one whose password is not set yet (added by an operator, the first start's
         *     owner). In that order, for every email: a used, revoked, expired or unknown token answers 400
         *     `invalid_link`; a full workspace 402 `limit_reached`; a `password` that breaks the new-password rules (10 to
         *     1024 characters, not the email) 400 `invalid_request`; then one throttled attempt (as sign-in's, from a
         *     browser the account does not know) that costs one password hash either way. When the email has an account,
         *     `password` must be its password; when its password is not set yet, nothing is; both refusals are the same
         *     401 `invalid_credentials` with the same message. When nobody has the email anywhere on the service,
         *     `password` becomes the password of a new account, made with the membership in one step. Such an account
         *     belongs to the inviting workspace: it records which invitation made it, and an operator's `admin member add`
         *     to another workspace refuses it (saying how and when it was made) until the email's owner has set its
         *     password from a set-password link an operator issued (`admin member password`), unless the operator passes
         *     `--trust-account`. The person becomes a member with the invitation's role, and the link stops working; sign
         *     in next. Every accept, and every refused one, is written to the workspace's audit log
         *     (`invitation.accepted`, `invitation.accept_refused` with the refusal's code, which is also alike).
         */
        post: operations["acceptInvitation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/password-links/lookup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Whose password a set-password link sets
         * @description Set-password links come from the first start (the default workspace's owner) and from the admin CLI
         *     (`member add` and `member password --email E`). Issuing a link revokes the person's older unused ones. Takes
         *     the token from the link's fragment. A used, revoked, expired or unknown token answers 400 `invalid_link`.
         *     Throttled per client address like sign-in.
         */
        post: operations["lookUpPasswordLink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/password-links/accept": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Set a password with a one-time link; every session of that person ends; sign in next */
        post: operations["setPasswordFromLink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The workspace's API keys that are not revoked, oldest first */
        get: operations["listApiKeys"];
        put?: never;
        /** Create an API key; the key is in this response only */
        post: operations["createApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api-keys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke an API key; from now on it answers 401 on every node */
        delete: operations["revokeApiKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/plan": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The workspace's plan, its limits and this month's usage
         * @description Changing plan is an operator action (`npm run --silent admin -- plan set --workspace WS --plan NAME`); `how_to_change` says so.
         */
        get: operations["getPlan"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/audit-log": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Who did what in the workspace's administration, newest first */
        get: operations["listAuditLog"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/files/{workspace_id}/{message_id}/raw": {
        parameters: {
            query: {
                /** @description Unix seconds after which the link no longer works */
                expires: components["parameters"]["SignedExpires"];
                signature: components["parameters"]["SignedSignature"];
            };
            header?: never;
            path: {
                workspace_id: components["parameters"]["SignedWorkspaceId"];
                message_id: components["parameters"]["SignedMessageId"];
            };
            cookie?: never;
        };
        /** Signed link to the raw message (no API key) */
        get: operations["getSignedRaw"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/files/{workspace_id}/{message_id}/html": {
        parameters: {
            query: {
                /** @description Unix seconds after which the link no longer works */
                expires: components["parameters"]["SignedExpires"];
                signature: components["parameters"]["SignedSignature"];
            };
            header?: never;
            path: {
                workspace_id: components["parameters"]["SignedWorkspaceId"];
                message_id: components["parameters"]["SignedMessageId"];
            };
            cookie?: never;
        };
        /**
         * Signed link to the HTML body, under the same policy as the html endpoint
         * @description The HTML body as `GET /v1/messages/{id}/html` serves it (`cid:` images inlined as `data:` URIs), for a
         *     browser or an iframe without an API key. With `report_height=1` the page also tells the page framing it how
         *     tall it is, so the frame can be sized to the mail; with `scheme=dark` it shows as in a mail client in dark
         *     mode, with `scheme=light` light whatever the reader's system prefers (the dashboard's viewer asks for the
         *     height and one of the two).
         */
        get: operations["getSignedHtml"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/files/{workspace_id}/{message_id}/attachments/{index}": {
        parameters: {
            query: {
                /** @description Unix seconds after which the link no longer works */
                expires: components["parameters"]["SignedExpires"];
                signature: components["parameters"]["SignedSignature"];
            };
            header?: never;
            path: {
                workspace_id: components["parameters"]["SignedWorkspaceId"];
                message_id: components["parameters"]["SignedMessageId"];
                /** @description Position in the message's attachments array, from 0 */
                index: components["parameters"]["AttachmentIndex"];
            };
            cookie?: never;
        };
        /** Signed link to an attachment */
        get: operations["getSignedAttachment"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/files/{workspace_id}/{message_id}/thumbnails/{index}": {
        parameters: {
            query: {
                /** @description Unix seconds after which the link no longer works */
                expires: components["parameters"]["SignedExpires"];
                signature: components["parameters"]["SignedSignature"];
            };
            header?: never;
            path: {
                workspace_id: components["parameters"]["SignedWorkspaceId"];
                message_id: components["parameters"]["SignedMessageId"];
                /** @description Position in the message's attachments array, from 0 */
                index: components["parameters"]["AttachmentIndex"];
            };
            cookie?: never;
        };
        /** Signed link to the thumbnail of an image attachment */
        get: operations["getSignedThumbnail"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/mcp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Not served; the server has no sessions, so no stream of its own to open
         * @description Streamable HTTP lets a client open a stream for messages the server starts; this server starts none and
         *     keeps no sessions, so GET answers 405 `method_not_allowed` with `Allow: POST`, which MCP clients read as
         *     "no such stream".
         */
        get: operations["mcpOpenStream"];
        put?: never;
        /**
         * The MCP server over streamable HTTP, for agents; the API key is the bearer
         * @description The [Model Context Protocol](https://modelcontextprotocol.io) server over streamable HTTP, without sessions:
         *     each POST carries a JSON-RPC message (or a batch), answered as one JSON body (`enableJsonResponse`), and the
         *     `initialize` handshake is repeated by nothing: every request stands alone. Hosts send `Accept: application/json,
         *     text/event-stream` and, after the handshake, `MCP-Protocol-Version`; a request without them is answered by the
         *     protocol's own JSON-RPC error (406, 400), which is not this API's envelope.
         *
         *     Only an API key opens it (`Authorization: Bearer sbx_api_...`); a session cookie is not looked at. The tools
         *     call this API with that same key, in this process: each of their requests is handed to this server's own
         *     HTTP app over an in-memory connection (no socket, no connection slot), as from the `/mcp` request's client
         *     address, so every permission, rate limit and share applies to them as to any other request: a tool call
         *     counts as the `/mcp` request plus the API requests it makes. The body is JSON of at most 1 MiB, like every
         *     other JSON body; a batch holds at most SANDBOX_MCP_MAX_BATCH messages (default 10; more is 400
         *     `mcp_batch_too_large`). One workspace runs at most SANDBOX_MCP_CALLS_PER_WORKSPACE tool calls at once (default
         *     16, counted per node); a call past it is answered at once as a tool error with `too_many_mcp_calls`.
         *
         *     Tools: `list_inboxes`, `search_messages` (inbox, q, limit), `get_message` (summary, text, codes, link_details;
         *     the HTML body only with `include_html`), `wait_for_message` and `wait_for_code` (inbox, q, `timeout_seconds`
         *     at most 120, `lookback_seconds`); with a `read_write` key also `create_inbox` and `delete_messages` (an inbox
         *     and 1 to 100 ids of its messages; no query). A `read` key is not offered the last two, and calling one anyway
         *     is a tool error. Every field the email's sender wrote (addresses, subject, snippet, bodies, codes and their
         *     context, links and their text, attachment names and types, parse errors) comes inside an `untrusted` object,
         *     and the answer's `untrusted_note` says it is data, never instructions. A refusal of the API is a tool result
         *     with `isError: true` whose text is `{"error": {"code", "status", "message"}}` with the API's code; a wait that
         *     timed out adds `explain` (the WaitExplanation's terms, matched, wanted and server_time, and its `recent` mail
         *     inside `untrusted`). The look-back window of a wait starts from the server's clock (`GET …/mark`). The same
         *     tools are served over stdio by `npm run --silent mcp`.
         */
        post: operations["mcpRequest"];
        /**
         * Not served; there is no session to end
         * @description The server keeps no sessions, so DELETE answers 405 `method_not_allowed` with `Allow: POST`; to a `read` key,
         *     like every DELETE, 403 `read_only_key`.
         */
        delete: operations["mcpEndSession"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/livez": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness - the process is up and serving HTTP */
        get: operations["livez"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness - every storage component answers
         * @description Probes every component of the profile at once (embedded: `sqlite`; cluster: `elasticsearch`, `redis`,
         *     `s3`), each for at most 2 seconds, and answers 200 when all of them answered, 503 naming the ones that
         *     did not. The answer never takes much longer than those 2 seconds, so an orchestrator's probe timeout of
         *     5 seconds is enough. `warnings` lists what an operator should fix that does not make the server unready
         *     (a workspace on a plan the configuration does not define).
         */
        get: operations["readyz"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Prometheus metrics
         * @description Prometheus text exposition format (0.0.4). The catalogue is in docs/operations.md; no metric has a workspace,
         *     inbox or address label. With SANDBOX_METRICS_TOKEN set, the request must carry
         *     `Authorization: Bearer <token>` (401 `unauthorized` otherwise). Without it, metrics are open on a server
         *     bound to loopback only; bound beyond loopback (SANDBOX_BIND 0.0.0.0, ::, a LAN address) they answer 403
         *     `metrics_token_required` until a token is set. With SANDBOX_METRICS_PORT set, metrics are served at
         *     `/metrics` on that port only (under the same rules), and this path answers 404 `not_found`.
         */
        get: operations["getMetrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /**
         * @description Stable error codes. HTTP status by code: invalid_json, invalid_request, invalid_cursor, invalid_query, not_an_image, webhook_target_forbidden 400;
         *     unauthorized 401; limit_reached, quota_reached 402; read_only_key, signature_invalid, signature_expired 403; not_found, wait_timeout 404;
         *     already_exists, delivery_pending, unexpected_message 409; payload_too_large, message_too_large 413; unsupported_media_type 415; analysis_limit 422;
         *     rate_limited 429; internal_error 500; storage_unavailable, shutting_down, server_busy 503;
         *     query_too_expensive 422; too_many_queries, too_many_waits, too_many_streams 429;
         *     not_configured 400; spam_engine_unavailable 503;
         *     invalid_link 400; invalid_credentials 401; session_required, role_required, csrf_failed, no_workspace 403; last_owner, account_unproved 409;
         *     host_not_allowed 421; metrics_token_required 403;
         *     request_timeout 408; too_many_connections, too_many_transactions 503;
         *     method_not_allowed 405; mcp_batch_too_large 400; too_many_mcp_calls 429 (an MCP tool's error, never an HTTP status).
         * @enum {string}
         */
        ErrorCode: "invalid_json" | "invalid_request" | "invalid_cursor" | "invalid_query" | "not_an_image" | "unauthorized" | "limit_reached" | "quota_reached" | "read_only_key" | "signature_invalid" | "signature_expired" | "not_found" | "wait_timeout" | "unexpected_message" | "already_exists" | "webhook_target_forbidden" | "delivery_pending" | "payload_too_large" | "message_too_large" | "unsupported_media_type" | "rate_limited" | "internal_error" | "storage_unavailable" | "shutting_down" | "server_busy" | "analysis_limit" | "not_configured" | "spam_engine_unavailable" | "invalid_link" | "invalid_credentials" | "session_required" | "role_required" | "csrf_failed" | "no_workspace" | "account_unproved" | "last_owner" | "host_not_allowed" | "metrics_token_required" | "query_too_expensive" | "too_many_queries" | "too_many_waits" | "too_many_streams" | "request_timeout" | "too_many_connections" | "too_many_transactions" | "method_not_allowed" | "mcp_batch_too_large" | "too_many_mcp_calls";
        /**
         * @description A JSON-RPC 2.0 message of the Model Context Protocol (a request, a notification or a response); the
         *     protocol's own schema says the rest.
         */
        McpMessage: {
            /** @constant */
            jsonrpc: "2.0";
        };
        /** @description A JSON-RPC 2.0 error the MCP transport answers with when a request breaks the protocol */
        McpErrorResponse: {
            /** @constant */
            jsonrpc: "2.0";
            id?: null | string | number;
            error: {
                code: number;
                message: string;
            };
        };
        Readiness: {
            /** @enum {unknown} */
            status: "ready" | "not_ready";
            /**
             * @description Problems an operator should fix that do not make the server unready. `plan_not_configured`: some
             *     workspaces are on a plan that SANDBOX_PLANS does not define (the message names the plan and how many
             *     workspaces; the server log names each workspace at start and at every retention pass); their mail is
             *     kept and the strictest configured limits apply. Looked up at most once a minute.
             */
            warnings: {
                /** @enum {unknown} */
                code: "plan_not_configured";
                message: string;
            }[];
            components: {
                /** @description sqlite, elasticsearch, redis or s3 */
                component: string;
                ready: boolean;
                /** @description How long it took to answer, or to be given up on */
                ms: number;
                /** @description Why it is not ready */
                error?: string;
            }[];
        };
        ErrorEnvelope: {
            /** @constant */
            success: false;
            error: {
                code: components["schemas"]["ErrorCode"];
                message: string;
                explain?: components["schemas"]["WaitExplanation"];
                found?: components["schemas"]["MessageDetail"];
            };
        };
        /**
         * @description Why a wait (`wait`, `wait-many`) timed out: the filter's terms as the server read them, how many messages
         *     matched, and the inbox's most recent messages, each with the terms it failed. A message listed with no
         *     failed term matched (only a `wait-many` that got fewer than it wanted lists one).
         */
        WaitExplanation: {
            /**
             * @description The terms every match needs, in the q language: `q`'s terms (an OR group or a negation is one term),
             *     then `from`, `to` and `subject` as `from:`, `to:` and `subject:`, and `since` as `after:`
             */
            terms: string[];
            /** @description Messages that matched within the wait */
            matched: number;
            /** @description Messages the wait asked for (1, or wait-many's count) */
            wanted: number;
            /**
             * Format: date-time
             * @description The server's clock when the wait ended
             */
            server_time: string;
            /** @description The inbox's most recent messages (received at or after `since` first, then older ones), newest first */
            recent: components["schemas"]["WaitExplanationMessage"][];
        };
        WaitExplanationMessage: {
            id: string;
            subject: string;
            /** @description The decoded From header */
            from: string;
            /** @description The envelope recipients (RCPT TO) */
            recipients: string[];
            /** Format: date-time */
            received_at: string;
            /** @description The terms of `terms` this message does not satisfy */
            failed_terms: string[];
        };
        InboxMark: {
            /**
             * Format: date-time
             * @description The server's clock now, for `since`
             */
            since: string;
            /** @description The inbox's stream position now, for the events stream's Last-Event-ID */
            last_event_id: string;
        };
        /**
         * @description A person's role in a workspace; see the Access tag for what each may do.
         * @enum {string}
         */
        Role: "owner" | "admin" | "member";
        /** @description An email address; compared and stored in lower case. */
        Email: string;
        /** @description 10 to 1024 characters, not the same as the email. */
        NewPassword: string;
        /** @description The token from a one-time link's fragment (`#token=...`). */
        LinkTokenValue: string;
        LinkToken: {
            token: components["schemas"]["LinkTokenValue"];
        };
        Person: {
            id: string;
            email: string;
            /** Format: date-time */
            created_at: string;
        };
        WorkspaceMembership: {
            id: string;
            name: string;
            role: components["schemas"]["Role"];
        };
        Me: {
            person: components["schemas"]["Person"];
            /** @description The session's workspace, with the person's role in it (as `GET /v1/workspace` answers for this session). */
            workspace: components["schemas"]["Workspace"];
            /** @description Every workspace the person belongs to, oldest membership first */
            workspaces: components["schemas"]["WorkspaceMembership"][];
            /** @description Send as `X-CSRF-Token` on every request of this session that is not GET */
            csrf_token: string;
            session: {
                id: string;
                /**
                 * Format: date-time
                 * @description The absolute end of the session
                 */
                expires_at: string;
                /**
                 * Format: date-time
                 * @description When the session ends unless it is used before
                 */
                idle_expires_at: string;
            };
        };
        SessionInfo: {
            id: string;
            /** Format: date-time */
            created_at: string;
            /**
             * Format: date-time
             * @description To the minute
             */
            last_seen_at: string;
            /** Format: date-time */
            expires_at: string;
            user_agent: string | null;
            ip: string | null;
            /** @description This request's session */
            current: boolean;
        };
        Member: {
            email: string;
            role: components["schemas"]["Role"];
            /** Format: date-time */
            joined_at: string;
            /** @description False for a member added by an operator who has not set a password yet */
            has_account: boolean;
        };
        Invitation: {
            id: string;
            email: string;
            role: components["schemas"]["Role"];
            /** @enum {string} */
            status: "pending" | "accepted" | "revoked" | "expired";
            /** @description The inviter's email */
            invited_by: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            expires_at: string;
        };
        InvitationWithLink: {
            id: string;
            email: string;
            role: components["schemas"]["Role"];
            /** @enum {string} */
            status: "pending";
            invited_by: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            expires_at: string;
            /**
             * Format: uri
             * @description The one-time link, shown only here
             */
            url: string;
        };
        InvitationPreview: {
            workspace_name: string;
            email: string;
            role: components["schemas"]["Role"];
            /** Format: date-time */
            expires_at: string;
        };
        /** @description A label for people, 1 to 100 characters. */
        ApiKeyName: string;
        ApiKey: {
            id: string;
            name: string | null;
            /** @description The key's first 12 characters, to recognise it */
            prefix: string;
            /** @enum {string} */
            access: "read" | "read_write";
            /** Format: date-time */
            created_at: string;
            /**
             * Format: date-time
             * @description To the minute; null when never used
             */
            last_used_at: string | null;
        };
        ApiKeyWithSecret: {
            id: string;
            name: string | null;
            prefix: string;
            /** @enum {string} */
            access: "read" | "read_write";
            /** Format: date-time */
            created_at: string;
            last_used_at: null;
            /** @description The key, shown only here */
            key: string;
        };
        PlanWithUsage: {
            name: string;
            /**
             * @description False when the server's configuration (SANDBOX_PLANS) does not define the workspace's plan: then no
             *     message is deleted for age (`retention_days` null) and every other limit is the strictest that any
             *     configured plan sets, until an operator defines the plan or moves the workspace to another.
             */
            configured: boolean;
            /** @description null means unlimited */
            monthly_limit: number | null;
            /** @description null: messages are kept (the plan is not configured) */
            retention_days: number | null;
            member_limit: number | null;
            inbox_limit: number | null;
            webhook_limit: number | null;
            requests_per_second: number | null;
            /** @description Tag rules the workspace may have; never unlimited, since every rule is matched against every arrival */
            tag_rule_limit: number;
            usage: components["schemas"]["Usage"];
            /** @description How an operator changes the plan (it is not a dashboard action) */
            how_to_change: string;
        };
        /**
         * @description `member.added` is an operator's `admin member add` (actor `operator`); its details say the role and whether
         *     the account was made by that step (`made_now`), existed (`existing`), or was made by another workspace's
         *     invitation and let in by the operator's `--trust-account`.
         * @enum {string}
         */
        AuditAction: "session.signed_in" | "person.password_changed" | "person.password_set" | "invitation.created" | "invitation.revoked" | "invitation.accepted" | "invitation.accept_refused" | "member.added" | "member.role_changed" | "member.removed" | "member.left" | "api_key.created" | "api_key.revoked";
        AuditEntry: {
            id: string;
            /** Format: date-time */
            at: string;
            /** @description The email of the person who acted, or "operator" for the admin CLI */
            actor: string;
            action: components["schemas"]["AuditAction"];
            /** @description What was acted on: an email, an invitation id or an API key id */
            target: string | null;
            /** @description e.g. the role given, the key's access */
            details?: {
                [key: string]: string | null;
            };
        };
        Workspace: {
            id: string;
            name: string;
            /**
             * @description Only set for dashboard sessions; never for API keys.
             * @enum {string}
             */
            role?: "owner" | "admin" | "member";
            /**
             * @description Only set for API keys: what the key may do (a `read` key only reads; see the Access tag). A tool that
             *     holds a key, such as the MCP server, reads it to offer only what the key allows.
             * @enum {string}
             */
            access?: "read" | "read_write";
        };
        Usage: {
            /**
             * Format: date-time
             * @description Start of the quota period (calendar month in UTC)
             */
            period_start: string;
            /** @description Emails received this month (SMTP and send), including deleted ones */
            used: number;
            /** @description null means unlimited */
            monthly_limit: number | null;
            /** @description Messages older than this many days are deleted (checked hourly by default); null: none are, as the workspace's plan is not configured on the server */
            retention_days: number | null;
            members: number;
            /** @description null means unlimited */
            member_limit: number | null;
            inboxes: number;
        };
        /** @description 1 to 100 characters, not only white space, no control characters; unique in the workspace regardless of case. */
        InboxName: string;
        Inbox: {
            id: string;
            name: string;
            smtp_username: string;
            message_count: number;
            /** @description How many of its messages are not marked read */
            unread_count: number;
            /** @description Whether the inbox's chaos settings are on, so its SMTP may fail on purpose (GET /v1/inboxes/{id}/chaos has them) */
            chaos_enabled: boolean;
            /** Format: date-time */
            created_at: string;
        };
        InboxWithCredentials: {
            id: string;
            name: string;
            smtp_username: string;
            message_count: number;
            unread_count: number;
            chaos_enabled: boolean;
            /** Format: date-time */
            created_at: string;
            smtp: {
                /** @description The host name to point an SMTP client at */
                host: string;
                /** @description The STARTTLS-capable plain port first, then the implicit-TLS port */
                ports: number[];
                username: string;
                /** @description Shown once, in the response that creates or rotates it */
                password: string;
                note?: string;
            };
        };
        InboxWithCredentialsEnvelope: {
            /** @constant */
            success: true;
            data: components["schemas"]["InboxWithCredentials"];
        };
        /** @description Percent of the times the stage is reached that this fires, 0 (never) to 100 (always); decimals allowed. */
        ChaosProbability: number;
        /** @description The reply text, 1-200 printable ASCII characters. Left out, a text saying this inbox's chaos settings refused; always present in responses. */
        ChaosMessage: string;
        /** @description Decided when AUTH identifies the inbox; the reply replaces the 235 and the connection is then closed. */
        ChaosConnectionTrigger: {
            probability: components["schemas"]["ChaosProbability"];
            /**
             * @description The reply, with the enhanced code it carries: 421 4.4.2, 554 5.6.0
             * @enum {integer}
             */
            code: 421 | 554;
            message?: components["schemas"]["ChaosMessage"];
        };
        /** @description AUTH with the right credentials is answered with this reply; the session is not logged in. */
        ChaosAuthenticationTrigger: {
            probability: components["schemas"]["ChaosProbability"];
            /**
             * @description The reply, with the enhanced code it carries: 421 4.4.2, 454 4.7.0, 534 5.0.0, 535 5.7.8, 538 5.7.0
             * @enum {integer}
             */
            code: 421 | 454 | 534 | 535 | 538;
            message?: components["schemas"]["ChaosMessage"];
        };
        /** @description MAIL FROM is answered with this reply. */
        ChaosSenderTrigger: {
            probability: components["schemas"]["ChaosProbability"];
            /**
             * @description The reply, with the enhanced code it carries: 421 4.4.2, 450 4.2.1, 451 4.3.0, 452 4.2.2, 550 5.1.1, 552 5.2.2, 553 5.1.3, 554 5.6.0
             * @enum {integer}
             */
            code: 421 | 450 | 451 | 452 | 550 | 552 | 553 | 554;
            message?: components["schemas"]["ChaosMessage"];
        };
        /** @description Each RCPT TO is rolled on its own and, when this fires, answered with this reply. */
        ChaosRecipientTrigger: {
            probability: components["schemas"]["ChaosProbability"];
            /**
             * @description The reply, with the enhanced code it carries: 421 4.4.2, 450 4.2.1, 451 4.3.0, 452 4.2.2, 550 5.1.1, 551 5.1.6, 552 5.2.2, 553 5.1.3, 554 5.6.0
             * @enum {integer}
             */
            code: 421 | 450 | 451 | 452 | 550 | 551 | 552 | 553 | 554;
            message?: components["schemas"]["ChaosMessage"];
        };
        /** @description The whole message is received, then refused with this reply at the end of DATA; nothing is stored or counted. */
        ChaosDataTrigger: {
            probability: components["schemas"]["ChaosProbability"];
            /**
             * @description The reply, with the enhanced code it carries: 421 4.4.2, 450 4.2.1, 451 4.3.0, 452 4.2.2, 550 5.1.1, 552 5.2.2, 554 5.6.0
             * @enum {integer}
             */
            code: 421 | 450 | 451 | 452 | 550 | 552 | 554;
            message?: components["schemas"]["ChaosMessage"];
        };
        /**
         * @description The command whose reply a disconnect replaces or a delay holds back (AUTH, MAIL FROM, each RCPT TO, end of DATA).
         * @enum {string}
         */
        ChaosBehaviourStage: "authentication" | "sender" | "recipient" | "data";
        /** @description Closes the connection without a reply at the stage. */
        ChaosDisconnect: {
            stage: components["schemas"]["ChaosBehaviourStage"];
            probability: components["schemas"]["ChaosProbability"];
        };
        /** @description Waits `ms` before the stage's reply (whatever it is), to test client timeouts. */
        ChaosDelay: {
            stage: components["schemas"]["ChaosBehaviourStage"];
            probability: components["schemas"]["ChaosProbability"];
            /** @description At most 30 s, below the server's own 60 s idle timeout */
            ms: number;
        };
        /** @description Settings as given to PUT; what is left out takes its default (a trigger at probability 0). */
        ChaosInput: {
            /** @description false: the inbox behaves normally, whatever the rest says */
            enabled: boolean;
            connection?: components["schemas"]["ChaosConnectionTrigger"];
            authentication?: components["schemas"]["ChaosAuthenticationTrigger"];
            sender?: components["schemas"]["ChaosSenderTrigger"];
            recipient?: components["schemas"]["ChaosRecipientTrigger"];
            data?: components["schemas"]["ChaosDataTrigger"];
            disconnect?: components["schemas"]["ChaosDisconnect"];
            delay?: components["schemas"]["ChaosDelay"];
        };
        /** @description The settings in force, every field present (`ChaosInput` completed with the defaults); PUT takes it back as it is. */
        ChaosSettings: {
            enabled: boolean;
            connection: components["schemas"]["ChaosConnectionTrigger"];
            authentication: components["schemas"]["ChaosAuthenticationTrigger"];
            sender: components["schemas"]["ChaosSenderTrigger"];
            recipient: components["schemas"]["ChaosRecipientTrigger"];
            data: components["schemas"]["ChaosDataTrigger"];
            disconnect: components["schemas"]["ChaosDisconnect"];
            delay: components["schemas"]["ChaosDelay"];
        };
        ChaosOutcome: {
            /**
             * @description accepted: nothing fired, the success reply; refused: the trigger's reply; disconnected: closed without a reply
             * @enum {string}
             */
            result: "accepted" | "refused" | "disconnected";
            /** @description The reply code; null when disconnected */
            code: number | null;
            /** @description The enhanced status code on the reply line; null when disconnected */
            enhanced_code: string | null;
            /** @description The reply text (`<message id>` stands for the stored message's id); null when disconnected */
            message: string | null;
            /** @description The connection is closed after this (a disconnect, the connection stage, any 421) */
            closes_connection: boolean;
            /** @description How long the reply would wait; 0 when the delay did not fire here */
            delay_ms: number;
        };
        /** @description One roll per stage; with chaos disabled every stage is accepted. */
        ChaosTest: {
            enabled: boolean;
            connection: components["schemas"]["ChaosOutcome"];
            authentication: components["schemas"]["ChaosOutcome"];
            sender: components["schemas"]["ChaosOutcome"];
            recipient: components["schemas"]["ChaosOutcome"];
            data: components["schemas"]["ChaosOutcome"];
        };
        MessageSummaryFields: {
            id: string;
            inbox_id: string;
            /** Format: date-time */
            received_at: string;
            /**
             * @description The SMTP MAIL FROM address, empty for a null sender (<>). As sent: a quoted local part keeps its quotes
             *     (`"john smith"@example.test`) and an SMTPUTF8 transaction's UTF-8 its UTF-8; a punycode domain is shown
             *     in Unicode (`user@bücher.example` for `user@xn--bcher-kva.example`). Each such address parses back to
             *     the mailbox sent to, and `from:=` with it finds the message.
             */
            envelope_from: string;
            /** @description The SMTP RCPT TO addresses, including Bcc, each shown as `envelope_from` is */
            recipients: string[];
            /**
             * @description The decoded From header as one address list that parses back (RFC 5322, with RFC 6532's UTF-8): display
             *     names quoted, quotes and backslashes inside them escaped; local parts quoted where they need to be
             *     (`"john smith"@example.test`; `"john.smith"` reads as `john.smith`); a punycode domain in Unicode
             */
            from: string;
            /** @description The decoded To header, written as `from` is */
            to: string;
            subject: string;
            /** @description The Message-ID header; empty when absent */
            message_id: string;
            /** @description Bytes of the raw message */
            size: number;
            has_text: boolean;
            has_html: boolean;
            attachment_count: number;
            link_count: number;
            /**
             * @description The start of the message's text on one line, as a message list shows it under the subject: the text
             *     body (or, without one, the HTML body's text) with preheader padding removed and whitespace collapsed,
             *     at most 140 characters, cut at a word boundary with "…" when longer. Computed at capture; empty when
             *     the message has no text, and for messages captured before this field existed until scripts/reindex runs.
             */
            snippet: string;
            /** @description Whether the sender used TLS (STARTTLS or implicit) */
            tls: boolean;
            /**
             * @description Set when the message is not valid MIME or its analysis hit a limit; parts may be missing. The raw
             *     message is always stored whole. Limits, each named here when hit: the analysis of one message runs on
             *     a worker thread for at most SANDBOX_PARSE_TIMEOUT_MS (default 5 s) with at most SANDBOX_PARSE_MEMORY_MB
             *     (default 512) of heap ("analysis stopped after 5 s (the limit per message)"); at most 1,000 MIME parts
             *     (any depth) and 1 MiB of header section per part. When analysis stops, From, To, Cc, Subject and
             *     Message-ID are still read from the header section, so the message can be found. Search reads the
             *     first 131,072 characters of the text body and as many of the HTML body's text.
             */
            parse_error?: string;
            read: boolean;
            tags: string[];
        };
        Webhook: {
            id: string;
            /** @description null means every inbox of the workspace */
            inbox_id: string | null;
            /** Format: uri */
            url: string;
            /** Format: date-time */
            created_at: string;
        };
        WebhookWithSecret: {
            id: string;
            inbox_id: string | null;
            /** Format: uri */
            url: string;
            /** Format: date-time */
            created_at: string;
            /** @description Signs deliveries (X-Sandbox-Signature); shown only here */
            secret: string;
        };
        Delivery: {
            id: number;
            /** @description The captured message; empty for webhook.test */
            message_id: string;
            /** @enum {string} */
            event: "message.received" | "webhook.test";
            /** @enum {string} */
            status: "pending" | "delivered" | "failed";
            attempts: number;
            /** @description The HTTP status of the last answer; null when none came */
            last_status: number | null;
            /** @description Why the last attempt failed */
            last_error: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            finished_at: string | null;
            /**
             * Format: date-time
             * @description When the next attempt is due; null once finished. While the receiver cools off after the workspace's repeated attempts without an answer (SANDBOX_WEBHOOK_BREAKER_FAILURES), it is the end of the cool-off, and waiting for it spends no attempt.
             */
            next_attempt_at: string | null;
        };
        /** @description Body of a message.received delivery; the full message is GET /v1/messages/{data.id} */
        WebhookMessageReceivedEvent: {
            /** @constant */
            event: "message.received";
            /** Format: date-time */
            created_at: string;
            data: components["schemas"]["WebhookMessage"];
        };
        /**
         * @description The message in a message.received delivery: exactly the summary fields the spec lists, none of them drawn
         *     from the message's bodies. `snippet` (the start of the text, which may hold a one-time code or a reset
         *     link) and `parse_error` are left out; the text, the HTML and the rest come from GET /v1/messages/{id}.
         */
        WebhookMessage: {
            id: string;
            inbox_id: string;
            /** Format: date-time */
            received_at: string;
            /** @description The SMTP MAIL FROM; empty for a null sender (<>) */
            envelope_from: string;
            /** @description The SMTP RCPT TO addresses, including Bcc */
            recipients: string[];
            /** @description The decoded From header */
            from: string;
            /** @description The decoded To header */
            to: string;
            subject: string;
            /** @description The Message-ID header; empty when absent */
            message_id: string;
            /** @description Bytes of the raw message */
            size: number;
            has_text: boolean;
            has_html: boolean;
            attachment_count: number;
            link_count: number;
            /** @description Whether the sender used TLS (STARTTLS or implicit) */
            tls: boolean;
            read: boolean;
            tags: string[];
        };
        /** @description Body of a webhook.test delivery */
        WebhookTestEvent: {
            /** @constant */
            event: "webhook.test";
            /** Format: date-time */
            created_at: string;
            data: {
                webhook_id: string;
                message: string;
            };
        };
        /** @description One event of the inbox event stream (GET /v1/inboxes/{id}/events), told apart by its `event` field */
        StreamEvent: components["schemas"]["StreamReadyEvent"] | components["schemas"]["StreamMessageEvent"] | components["schemas"]["StreamResetEvent"];
        /** @description The first event of every stream: `event: ready`, the reconnection delay, the position it starts from */
        StreamReadyEvent: {
            /** @constant */
            event: "ready";
            /** @description The stream cursor the stream starts from */
            id: string;
            /**
             * @description The reconnection delay suggested to clients, in ms
             * @constant
             */
            retry?: 2000;
            data: string;
        };
        /** @description A new email: `event: message`, its stream cursor, its MessageSummary */
        StreamMessageEvent: {
            /** @constant */
            event: "message";
            /** @description The stream cursor of the message */
            id: string;
            /** @description One line of JSON */
            data: string;
        };
        /** @description `event: reset`: the stream cannot resume from the Last-Event-ID given and goes on from the newest arrival */
        StreamResetEvent: {
            /** @constant */
            event: "reset";
            /** @description The stream cursor of the newest arrival */
            id: string;
            data: string;
        };
        /** @description Data of the inbox event stream's `ready` event */
        StreamReady: {
            inbox_id: string;
        };
        /** @description Data of the inbox event stream's `reset` event */
        StreamReset: {
            /**
             * @description Why the stream could not resume from the cursor given
             * @enum {string}
             */
            reason: "cursor_expired";
            message: string;
        };
        LinkDetail: {
            /** @description The http(s) link as written */
            url: string;
            /** @description What the reader sees of it: the anchor text, on one line; empty for a URL in the text body */
            text: string;
            /**
             * @description The HTML body (an a or area element) or the text body
             * @enum {string}
             */
            source: "html" | "text";
        };
        OneTimeCode: {
            /**
             * @description The code as typed: digits written in groups are joined
             * @example 482913
             */
            value: string;
            /**
             * @description Where it was found: the subject, the text body or the HTML body's text
             * @enum {string}
             */
            source: "subject" | "text" | "html";
            /** @description The text around it on one line, at most 60 characters */
            context: string;
        };
        MessageSummary: components["schemas"]["MessageSummaryFields"];
        MessageCount: {
            /** @description Messages of the inbox the search matches */
            messages: number;
            /** @description How many of those are not marked read */
            unread: number;
        };
        MessageDetail: components["schemas"]["MessageSummaryFields"] & {
            /**
             * @description The text/plain body, when there is one: its first 262,144 characters (then `truncated` names it; the
             *     whole text is in the raw message, and the `view.html` of a message without HTML shows it)
             */
            text?: string;
            /**
             * @description The text/html body, when there is one: its first 262,144 characters (then `truncated` names it; the
             *     whole body is at `html_url` and `files.html`)
             */
            html?: string;
            /**
             * @description Unique http(s) links from the HTML hrefs and the text body, in order of appearance: as many as fit
             *     in 262,144 characters together (then `truncated` names it)
             */
            links: string[];
            /**
             * @description Present when the message is larger than its detail shows: the fields that hold only the start of what
             *     the message has. A message is read once and its detail kept, and every read of it sends the detail,
             *     so each of these fields is bounded; the whole message is served as files (raw_url, html_url, the files links).
             */
            truncated?: ("text" | "html" | "headers" | "links")[];
            /**
             * @description The links of `links` as the reader sees them, found at capture: each once, HTML first, with its
             *     anchor text (an image's alt text when the anchor holds only an image; empty for a URL written in
             *     the text body) and where it was found; at most 200. Empty for messages captured before this field
             *     existed until scripts/reindex runs.
             */
            link_details: components["schemas"]["LinkDetail"][];
            /**
             * @description One-time codes (sign-in, verification, OTP, PIN) found at capture in the subject, the text body and
             *     the HTML body's text, best candidate first, each value once. A candidate is a run of 4–10 digits
             *     (written in equal groups such as `482 913` or `482-913`, given joined: `482913`) or a token of 5–10
             *     letters and digits such as `G3H1Y2`, and counts only when a code word is near it (code, OTP, PIN,
             *     verification, sign-in, security, and their like in a dozen languages); years, prices, dates, times,
             *     counts, numbers inside links, and numbers an order, invoice, card, phone or promo word names are not
             *     codes. Empty when none was found (and for messages captured before this field existed until
             *     scripts/reindex runs).
             */
            codes: components["schemas"]["OneTimeCode"][];
            /**
             * @description Header name (lower case) to its decoded values, in order of appearance: the fields whose names and
             *     values fit in 262,144 characters together, the one that crosses it cut there (then `truncated`
             *     names it; every header is in the raw message)
             */
            headers?: {
                [key: string]: string[];
            };
            attachments: components["schemas"]["Attachment"][];
            /** @description Path to the raw .eml; needs the API key */
            raw_url: string;
            /** @description Path to the HTML body, when there is one; needs the API key */
            html_url?: string;
            /** @description Signed, expiring links that open without an Authorization header (see the Files tag) */
            files: {
                /** Format: uri */
                raw: string;
                /**
                 * Format: uri
                 * @description Present when the message has an HTML part
                 */
                html?: string;
                /** @description One link per attachment, in attachment order */
                attachments: string[];
                /** @description One link per image attachment, in attachment order */
                thumbnails: string[];
                /** Format: date-time */
                expires_at: string;
            };
            /**
             * @description The List-Unsubscribe (RFC 2369) and List-Unsubscribe-Post (RFC 8058) headers, when present. `links`
             *     holds the http, https and mailto URIs a client could act on, in order; everything wrong
             *     (text outside angle brackets, relative URIs, other schemes, one-click without an https URI,
             *     repeated headers) is described in `errors`.
             */
            list_unsubscribe?: {
                header?: string;
                header_post?: string;
                links?: string[];
                errors?: string;
            };
        };
        Attachment: {
            /** @description Path to download it; needs the API key */
            url: string;
            /** @description Path to a PNG thumbnail; only for attachments declared PNG, JPEG, GIF or WebP */
            thumb_url?: string;
            /** @description Position in the message's attachments array, from 0 */
            index: number;
            filename: string;
            content_type: string;
            size: number;
        };
        SpamCheck: {
            /** @description spamd's verdict: Score reached RequiredScore */
            IsSpam: boolean;
            /** @description The message's score as spamd reports it (one decimal) */
            Score: number;
            /** @description spamd's threshold, its required_score */
            RequiredScore: number;
            /** @description The rules that fired, in spamd's order */
            Rules: {
                /** @description SpamAssassin rule name, e.g. GTUBE */
                Name: string;
                /** @description As spamd reports it: one decimal below 10 (and above -10), whole numbers beyond; may be negative */
                Score: number;
                /** @description The rule's description as spamd reports it, including its area (e.g. "BODY: ") */
                Description: string;
            }[];
        };
        /** @description The authentication check's report (GET /v1/messages/{id}/auth-check) */
        AuthCheck: {
            Verdict: components["schemas"]["AuthCheckVerdict"];
            Dkim: components["schemas"]["AuthCheckDkim"];
            Dmarc: components["schemas"]["AuthCheckDmarc"];
            Arc: components["schemas"]["AuthCheckArc"];
            /** @description The Authentication-Results fields the message carries, top first (claims of whoever wrote them, not verified here) */
            AuthenticationResults: {
                /** @description Authentication-Results fields in the message */
                Found: number;
                /** @description The first 20, parsed */
                Fields: components["schemas"]["AuthResultsField"][];
            };
            Spf: components["schemas"]["AuthCheckSpfHint"];
            /** @description DNS names this check looked up (TXT), at most 24 */
            Lookups: number;
        };
        /** @description One word for a badge, and why */
        AuthCheckVerdict: {
            /**
             * @description `pass`: a signature passes and its `d=` aligns with the From domain (strictly when the DMARC record asks for
             *     it), so DMARC passes on DKIM alone; `fail`: signed, but no signature does; `temperror`: none does yet, and a
             *     key or record lookup failed for now (check again); `none`: the message carries no DKIM-Signature
             * @enum {string}
             */
            Result: "pass" | "fail" | "temperror" | "none";
            /** @description In plain words, naming the signature that decided it */
            Reason: string;
        };
        AuthCheckDkim: {
            /**
             * @description `pass` when any signature passes; else the first signature's result; `none` without signatures
             * @enum {string}
             */
            Result: "pass" | "fail" | "neutral" | "policy" | "temperror" | "permerror" | "none";
            /** @description DKIM-Signature fields in the message */
            Found: number;
            /** @description More than 10 were found; `Signatures` holds the first 10, the others were not verified */
            Capped: boolean;
            Signatures: components["schemas"]["AuthCheckSignature"][];
        };
        AuthCheckSignature: {
            /** @description Its place among the message's DKIM-Signature fields, 1 for the topmost */
            Index: number;
            /**
             * @description RFC 8601's words; see the operation for what each one covers
             * @enum {string}
             */
            Result: "pass" | "fail" | "neutral" | "policy" | "temperror" | "permerror";
            /** @description Why it does not pass, in plain words; null when it passes */
            Reason: string | null;
            /** @description d=, the signing domain, as written; null when absent */
            Domain: string | null;
            /** @description s=; the key is the TXT record at `<s>._domainkey.<d>` */
            Selector: string | null;
            /** @description a=, e.g. `rsa-sha256`, `ed25519-sha256` */
            Algorithm: string | null;
            /** @description c= as written, e.g. `relaxed/relaxed`; null when absent (`simple/simple`) */
            Canonicalization: string | null;
            /** @description i=, the signing identity, when given */
            Identity: string | null;
            /** @description h=: the header fields the signature covers, lower case, in order */
            SignedHeaders: string[];
            /** @description Header fields present in the message that RFC 6376 §5.4.1 says to sign and h= leaves out, lower case; they may change without failing the signature */
            UnsignedHeaders: string[];
            /** @description Whether the body hashes to bh=; null when the signature could not be read */
            BodyHashMatches: boolean | null;
            /** @description l=: only this many bytes of the (canonicalized) body are signed, and anything may follow them; null: all of it */
            BodyLength: number | null;
            /**
             * @description The published key's type; null when no usable key was found
             * @enum {string|null}
             */
            KeyType: "rsa" | "ed25519" | null;
            /** @description Its size: the RSA modulus's bits, 256 for Ed25519 */
            KeyBits: number | null;
            /**
             * Format: date-time
             * @description t=, when given
             */
            SignedAt: string | null;
            /**
             * Format: date-time
             * @description x=, when given
             */
            ExpiresAt: string | null;
            /** @description Whether d= aligns with the From domain (DMARC, RFC 7489 §3.1.1); null when the From field does not hold exactly one address */
            Aligned: {
                /** @description d= is the From domain's organizational domain or under it */
                Relaxed: boolean;
                /** @description d= is the From domain itself */
                Strict: boolean;
            } | null;
        };
        AuthCheckDmarc: {
            /**
             * @description On DKIM alone (SPF alignment is not evaluated: a test client sent the message): `pass`, a passing signature
             *     aligns as the record asks; `fail`, none does; `none`, no record (at the From domain nor at its organizational
             *     domain); `temperror`, the record could not be looked up now; `permerror`, the From field does not hold
             *     exactly one address
             * @enum {string}
             */
            Result: "pass" | "fail" | "none" | "temperror" | "permerror";
            Reason: string;
            /** @description The domain of the From address, lower case; null unless there is exactly one */
            FromDomain: string | null;
            /** @description Its registrable domain (per the Public Suffix List), which relaxed alignment compares */
            OrganizationalDomain: string | null;
            /** @description The domain whose `_dmarc` record applies: the From domain, or its organizational domain */
            RecordDomain: string | null;
            /** @description The DMARC record as published */
            Record: string | null;
            /**
             * @description What the record asks receivers to do with mail that fails (sp= for a subdomain under its organizational domain's record)
             * @enum {string|null}
             */
            Policy: "none" | "quarantine" | "reject" | null;
            /** @description pct=, 100 when absent */
            Percent: number | null;
            /**
             * @description adkim= (relaxed when absent)
             * @enum {string|null}
             */
            DkimAlignment: "relaxed" | "strict" | null;
            /** @description The Index of the passing signature that aligns; null when none does */
            AlignedSignature: number | null;
        };
        AuthCheckArc: {
            /**
             * @description `pass`: the chain verifies; `fail`: it does not (or is malformed); `none`: no ARC set; `temperror`: a key could not be looked up now
             * @enum {string}
             */
            Result: "pass" | "fail" | "none" | "temperror";
            /** @description Why it does not pass; null when it passes or there is none */
            Reason: string | null;
            /** @description By instance, lowest first */
            Sets: components["schemas"]["AuthCheckArcSet"][];
        };
        AuthCheckArcSet: {
            /** @description i= */
            Instance: number;
            /** @description ARC-Seal d= */
            SealDomain: string | null;
            /** @description ARC-Seal s= */
            SealSelector: string | null;
            /** @description ARC-Seal cv= (`none`, `pass`, `fail`): what the sealer found of the chain before it */
            ChainValidation: string | null;
            /** @description ARC-Message-Signature d= */
            SignatureDomain: string | null;
            /** @description ARC-Message-Signature s= */
            SignatureSelector: string | null;
            /** @description The set's ARC-Authentication-Results, parsed; null when it has none */
            AuthenticationResults: components["schemas"]["AuthResultsField"] | null;
        };
        AuthResultsField: {
            /** @description Who claims to have checked; null when the field cannot be read */
            AuthServId: string | null;
            /** @description In order; empty for `none` or a field that cannot be read */
            Results: components["schemas"]["AuthResult"][];
            /** @description The field's value as written, unfolded */
            Text: string;
        };
        AuthResult: {
            /** @description e.g. `dkim`, `spf`, `dmarc`, `arc`, lower case */
            Method: string;
            /** @description e.g. `pass`, `fail`, `none`, lower case */
            Result: string;
            /** @description reason= */
            Reason: string | null;
            /** @description The comment after the result, e.g. `body hash did not verify` */
            Comment: string | null;
            /** @description e.g. `header.d=shop.example` as {Type: header, Name: d, Value: shop.example} */
            Properties: {
                /** @description e.g. `header`, `smtp`, `policy` */
                Type: string;
                /** @description e.g. `d`, `from`, `mailfrom` */
                Name: string;
                Value: string;
            }[];
        };
        /** @description What the envelope sender's domain's SPF record allows; never a verdict on the test client that sent the message */
        AuthCheckSpfHint: {
            /** @description Why this is a hint and not a verdict */
            Note: string;
            /** @description The envelope sender's (MAIL FROM) domain, or the From domain for a null sender; null when neither is a domain name */
            Domain: string | null;
            /**
             * @description `found`: one SPF record; `none`: no record, or no domain; `temperror`: the lookup failed for now; `permerror`: more than one record (RFC 7208 §4.5)
             * @enum {string}
             */
            Status: "found" | "none" | "temperror" | "permerror";
            /** @description The SPF record as published */
            Record: string | null;
            /** @description Its mechanisms and modifiers, e.g. `ip4:192.0.2.0/24`, `include:_spf.mailer.example`, `-all` */
            Terms: string[];
            Reason: string;
        };
        ReadState: {
            id: string;
            read: boolean;
        };
        /**
         * @description 1 to 64 characters: letters (with combining marks) and digits of any script, single spaces and
         *     . _ : / @ + # -; it starts with a letter, digit, _, # or @ and does not end with a space. Tags are
         *     case-insensitive and stored in lower case, so `Urgent` and `urgent` are the same tag; the 64-character
         *     limit applies to the lower-case form.
         */
        TagName: string;
        Tag: {
            name: string;
            /** @description The chosen CSS colour, or the automatic one derived from the name */
            color: string;
            /** @description Whether the colour was chosen (false: automatic) */
            custom_color: boolean;
            message_count: number;
        };
        TagRuleInput: {
            /** @description null or absent: every inbox of the workspace */
            inbox_id?: string | null;
            /** @description A q expression; empty matches every message */
            query: string;
            tags: components["schemas"]["TagName"][];
        };
        TagRule: {
            id: string;
            inbox_id: string | null;
            query: string;
            tags: string[];
            /** Format: date-time */
            created_at: string;
        };
        Address: {
            name?: string;
            /** Format: email */
            email: string;
        };
        SendRequest: {
            from: components["schemas"]["Address"];
            to: components["schemas"]["Address"][];
            cc?: components["schemas"]["Address"][];
            bcc?: components["schemas"]["Address"][];
            reply_to?: components["schemas"]["Address"][];
            subject: string;
            text?: string;
            html?: string;
            /** @description Extra headers. Names the request's own fields set (From, To, Cc, Bcc, Reply-To, Subject, Content-Type, Content-Transfer-Encoding, Content-Disposition, MIME-Version) are refused, as are values with line breaks. */
            headers?: {
                [key: string]: string;
            };
            tags?: components["schemas"]["TagName"][];
            attachments?: {
                filename: string;
                /**
                 * @description A MIME type, optionally with parameters; no line breaks
                 * @default application/octet-stream
                 */
                content_type?: string;
                /** @description The file, base64 (white space allowed) */
                content: string;
            }[];
        };
        BatchRequest: {
            /** @enum {string} */
            action: "read" | "unread" | "delete" | "tag" | "untag";
            ids?: string[];
            /** @description A q expression */
            query?: string;
            inbox_id?: string;
            tags?: components["schemas"]["TagName"][];
        };
        BatchResult: {
            action: string;
            /** @description Messages whose state the action changed */
            affected: number;
        };
        /**
         * @description The HTML check's report. Support data: caniemail.com (MIT), vendored in the server; each client counts with its
         *     most recent caniemail test, as caniemail.com's "estimated support" does.
         */
        HtmlCheck: {
            /** @description Every feature the message uses, sorted by Score.Unsupported, then Score.Partial (both descending), then Slug */
            Warnings: components["schemas"]["HtmlCheckWarning"][];
            /** @description Every platform caniemail tests (e.g. `windows`, `ios`, `desktop-webmail`), with the client families tested on it, sorted */
            Platforms: {
                [key: string]: string[];
            };
            Total: components["schemas"]["HtmlCheckTotal"];
            /** @description The linked stylesheets (at most five, in order) and whether their CSS was checked */
            Stylesheets: components["schemas"]["HtmlCheckStylesheet"][];
        };
        HtmlCheckWarning: {
            /** @description caniemail's feature slug, e.g. `css-display-flex`; this service's own rules: `html-script`, `html-event-handler-attributes`, `html-javascript-urls` */
            Slug: string;
            Title: string;
            /** @description Markdown */
            Description: string;
            /** @description The feature's caniemail.com page; null for this service's own rules */
            URL: string | null;
            /** @enum {string} */
            Category: "html" | "css" | "image" | "others";
            Tags: string[];
            /**
             * @description caniemail's data, or this service's rule for constructs no email client runs (their Results are empty and Score.Unsupported is 100)
             * @enum {string}
             */
            Source: "caniemail" | "mail-sandbox";
            /** @description One per email client (a family on a platform), its most recent caniemail test; sorted by Family, then Platform */
            Results: components["schemas"]["HtmlCheckResult"][];
            /** @description caniemail's notes on the feature by number (Markdown), as NoteNumbers refer to them */
            NotesByNumber: {
                [key: string]: string;
            };
            Score: components["schemas"]["HtmlCheckScore"];
        };
        HtmlCheckResult: {
            /** @description Family, platform and version for people, e.g. `Outlook Windows (2019)` */
            Name: string;
            /** @description caniemail's family key, e.g. `outlook`, `gmail`, `apple-mail` */
            Family: string;
            /** @description caniemail's platform key, e.g. `windows`, `ios`, `desktop-webmail` */
            Platform: string;
            /** @description The version or the date (YYYY-MM) caniemail tested */
            Version: string;
            /**
             * @description caniemail's y, n, a (partial) and u (not known); a note never changes the level
             * @enum {string}
             */
            Support: "yes" | "no" | "partial" | "unknown";
            /** @description Keys of NotesByNumber that qualify this result */
            NoteNumbers: string[];
        };
        /** @description Shares of the clients in Results with each level of support, in percent with two decimals (they add up to 100, give or take the rounding) */
        HtmlCheckScore: {
            /** @description How many times the message uses the feature */
            Found: number;
            Supported: number;
            Partial: number;
            Unsupported: number;
            Unknown: number;
        };
        /**
         * @description The worst feature decides: Unsupported and Partial are the largest Score.Unsupported and Score.Partial of one
         *     feature, each weighted by Found / Nodes (at most 1); Partial is at most 100 - Unsupported, and Supported is
         *     what is left, so the three stay within 0-100 and add up to 100.
         */
        HtmlCheckTotal: {
            /** @description How many features the check looks for */
            Tests: number;
            /** @description HTML elements in the message */
            Nodes: number;
            Supported: number;
            Partial: number;
            Unsupported: number;
        };
        HtmlCheckStylesheet: {
            /** @description The URL requested, or the href as written when it could not be made absolute */
            URL: string;
            Checked: boolean;
            /** @description Why it was not checked (refused address, timeout, status, size, type); null when it was */
            Error: string | null;
        };
    };
    responses: {
        /**
         * @description No such inbox in this workspace (`not_found`), or not enough matched within the timeout (`wait_timeout`,
         *     with `error.explain`)
         */
        WaitTimedOut: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description Malformed request or invalid value (`invalid_json`, `invalid_request`, `invalid_cursor`, `invalid_query`, `webhook_target_forbidden`, `invalid_link`); every operation refuses unknown query parameters and malformed path values this way */
        BadRequest: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description Missing, malformed, unknown or revoked API key, or no live session (`unauthorized`); a wrong email or password (`invalid_credentials`) */
        Unauthorized: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description The plan's limit would be exceeded (`limit_reached`) */
        LimitReached: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description The workspace's monthly email allowance is used up (`quota_reached`) */
        QuotaReached: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description The body exceeds its limit (`payload_too_large`) or the composed message the maximum message size (`message_too_large`) */
        MessageTooLarge: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description The signed link was altered (`signature_invalid`) or has expired (`signature_expired`) */
        BadSignature: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description The key is read-only (`read_only_key`); the operation needs a dashboard session (`session_required`) or a higher role (`role_required`); a session's change came without its CSRF token or from another origin (`csrf_failed`); the person belongs to no workspace (`no_workspace`) */
        Forbidden: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description No such object in this workspace (`not_found`) */
        NotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /**
         * @description An object with that name already exists (`already_exists`); the change would leave the workspace without an
         *     owner (`last_owner`). `account_unproved` is the admin CLI's alone (`member add` of an email whose account
         *     another workspace's invitation made, and nobody has proved since); no endpoint answers it
         */
        Conflict: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description The JSON body exceeds 1 MiB (`payload_too_large`) */
        PayloadTooLarge: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description The `Host` header names none of the names this server answers to (`host_not_allowed`); see the API description */
        MisdirectedRequest: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description The MCP endpoint takes POST only (`method_not_allowed`) */
        McpMethodNotAllowed: {
            headers: {
                Allow: "POST";
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description The body is not `application/json` (`unsupported_media_type`) */
        UnsupportedMediaType: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /**
         * @description The server could not complete the request: `storage_unavailable` (503; storage failed, nothing was changed
         *     unless the message says otherwise; retry), `shutting_down` (503), `server_busy` (503; the content workers'
         *     queue, or the password checks' queue, is full; retry), `internal_error` (500).
         */
        ServerError: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description The chaos settings now in force, every field present */
        ChaosSettings: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /** @constant */
                    success: true;
                    data: components["schemas"]["ChaosSettings"];
                };
            };
        };
        /**
         * @description The message as a page: its HTML body with every `cid:` reference to one of its image attachments replaced
         *     by that image as a `data:` URI (so the page needs nothing else to show it, and nothing expires), or, for a
         *     message without HTML, its text escaped inside a `<pre>`. Served
         *     under the same headers as `GET /v1/messages/{id}/html` (a Content-Security-Policy with `sandbox` and no
         *     scripts, remote content blocked unless `remote=1`, `nosniff`, `no-referrer`). Viewing never marks the
         *     message read.
         */
        RenderedHtml: {
            headers: {
                "X-Content-Type-Options": components["headers"]["NoSniff"];
                "Cross-Origin-Resource-Policy": components["headers"]["SameOriginResource"];
                "Referrer-Policy": components["headers"]["NoReferrer"];
                "Content-Security-Policy": components["headers"]["HtmlContentSecurityPolicy"];
                "X-DNS-Prefetch-Control": components["headers"]["NoDnsPrefetch"];
                [name: string]: unknown;
            };
            content: {
                "text/html": string;
            };
        };
        /** @description The HTML body, `cid:` images inlined as `data:` URIs, with the height report if asked for (not an envelope) */
        SignedMessageHtml: {
            headers: {
                "X-Content-Type-Options": components["headers"]["NoSniff"];
                "Cross-Origin-Resource-Policy": components["headers"]["SameOriginResource"];
                "Referrer-Policy": components["headers"]["NoReferrer"];
                "Content-Security-Policy": components["headers"]["SignedHtmlContentSecurityPolicy"];
                "X-DNS-Prefetch-Control": components["headers"]["NoDnsPrefetch"];
                [name: string]: unknown;
            };
            content: {
                "text/html": string;
            };
        };
        /** @description The HTML body, `cid:` images inlined as `data:` URIs (not an envelope) */
        MessageHtml: {
            headers: {
                "X-Content-Type-Options": components["headers"]["NoSniff"];
                "Cross-Origin-Resource-Policy": components["headers"]["SameOriginResource"];
                "Referrer-Policy": components["headers"]["NoReferrer"];
                "Content-Security-Policy": components["headers"]["HtmlContentSecurityPolicy"];
                "X-DNS-Prefetch-Control": components["headers"]["NoDnsPrefetch"];
                [name: string]: unknown;
            };
            content: {
                "text/html": string;
            };
        };
        /** @description The text */
        RenderedText: {
            headers: {
                "X-Content-Type-Options": components["headers"]["NoSniff"];
                "Cross-Origin-Resource-Policy": components["headers"]["SameOriginResource"];
                "Referrer-Policy": components["headers"]["NoReferrer"];
                "Content-Security-Policy": components["headers"]["FileContentSecurityPolicy"];
                [name: string]: unknown;
            };
            content: {
                "text/plain": string;
            };
        };
        /** @description The raw message (not an envelope), as a download named `<message id>.eml` */
        RawMessage: {
            headers: {
                "X-Content-Type-Options": components["headers"]["NoSniff"];
                "Cross-Origin-Resource-Policy": components["headers"]["SameOriginResource"];
                "Referrer-Policy": components["headers"]["NoReferrer"];
                "Content-Security-Policy": components["headers"]["FileContentSecurityPolicy"];
                "Content-Disposition": components["headers"]["DownloadDisposition"];
                [name: string]: unknown;
            };
            content: {
                "message/rfc822": string;
            };
        };
        /**
         * @description The attachment's bytes as a download named as in the message. Its content type is the one the message
         *     declares, or `application/octet-stream` when that is not a well-formed `type/subtype` or is a type a
         *     browser could run or apply: any XML type (`text/xml`, `application/xml`, `*\/*+xml` such as `image/svg+xml`
         *     and `application/xhtml+xml`), `text/html`, `text/xsl`, `multipart/x-mixed-replace`, `text/css`,
         *     `application/wasm`, and every JavaScript type (`text/javascript`, `application/javascript`,
         *     `application/ecmascript`, `application/x-ecmascript`, `application/x-javascript`, `text/ecmascript`,
         *     `text/javascript1.0` to `text/javascript1.5`, `text/jscript`, `text/livescript`, `text/x-ecmascript`,
         *     `text/x-javascript`). A PDF stays `application/pdf`. The message's detail keeps the declared type in
         *     `content_type`.
         */
        AttachmentFile: {
            headers: {
                "X-Content-Type-Options": components["headers"]["NoSniff"];
                "Cross-Origin-Resource-Policy": components["headers"]["SameOriginResource"];
                "Referrer-Policy": components["headers"]["NoReferrer"];
                "Content-Security-Policy": components["headers"]["FileContentSecurityPolicy"];
                "Content-Disposition": components["headers"]["DownloadDisposition"];
                [name: string]: unknown;
            };
            content: {
                "*/*": string;
            };
        };
        /** @description The thumbnail, a PNG made by the server, shown in place */
        Thumbnail: {
            headers: {
                "X-Content-Type-Options": components["headers"]["NoSniff"];
                "Cross-Origin-Resource-Policy": components["headers"]["SameOriginResource"];
                "Referrer-Policy": components["headers"]["NoReferrer"];
                "Content-Security-Policy": components["headers"]["FileContentSecurityPolicy"];
                "Content-Disposition": components["headers"]["InlineDisposition"];
                [name: string]: unknown;
            };
            content: {
                "image/png": string;
            };
        };
        /**
         * @description Reading the message's content overran the analysis limits (`analysis_limit`): each parse runs in a worker
         *     thread for at most SANDBOX_PARSE_TIMEOUT_MS (default 5 s) with at most SANDBOX_PARSE_MEMORY_MB (default
         *     512) of heap. The raw message is always available from the raw endpoint.
         */
        AnalysisLimit: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /**
         * @description The search ran out of its time budget and was stopped (`query_too_expensive`): SANDBOX_QUERY_TIMEOUT_MS
         *     (default 2000) of running time. Narrow it: fewer text terms (negated ones and ones of one or two
         *     characters cost most), longer words, an `after:` or `since` bound, or one inbox.
         */
        QueryTooExpensive: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /**
         * @description Request rate exceeded (`rate_limited`, with Retry-After), or more at once than a workspace's share:
         *     `too_many_queries` (searches waiting for their turn, SANDBOX_QUERY_QUEUE_PER_WORKSPACE),
         *     `too_many_waits` (open waits, SANDBOX_WAITS_PER_WORKSPACE), `too_many_streams` (open event streams,
         *     SANDBOX_STREAMS_PER_WORKSPACE). Those three carry no Retry-After: retry once one of the workspace's own
         *     requests has answered. Every 429 is sent after a pause of SANDBOX_REFUSAL_PAUSE_MS (default 1,000 ms,
         *     never longer than its Retry-After).
         */
        RateLimited: {
            headers: {
                /** @description Seconds to wait */
                "Retry-After"?: number;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description How many messages were deleted */
        DeletedMessages: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /** @constant */
                    success: true;
                    data: {
                        deleted_messages: number;
                    };
                };
            };
        };
    };
    parameters: {
        /** @description Webhook id */
        WebhookId: string;
        /** @description Inbox id */
        InboxId: string;
        /** @description Message id */
        MessageId: string;
        /** @description Position in the message's attachments array, from 0 */
        AttachmentIndex: number;
        /** @description A tag name, URL-encoded; compared case-insensitively */
        TagNameParam: string;
        ViewInboxId: string;
        /** @description A message of this inbox (`latest` names the views above). */
        ViewMessageId: string;
        SignedWorkspaceId: string;
        SignedMessageId: string;
        /** @description Unix seconds after which the link no longer works */
        SignedExpires: number;
        SignedSignature: string;
        /**
         * @description `1` lets the page load images, stylesheets and fonts from anywhere, as a mail client that shows remote
         *     content does. `0` (the default) blocks them, so opening a message does not tell its sender: images and
         *     fonts come only from the message itself (`data:` URIs; its `cid:` images are inlined as such) and styles
         *     only from the page (no `@import`, no `<link rel=stylesheet>`). Scripts never run either way. On a signed
         *     link it is not covered by the signature.
         */
        RemoteContent: 0 | 1;
        /**
         * @description `1` puts the server's preview script first in the page (after a leading doctype); it posts
         *     `{ "mailFrameHeight": <CSS pixels>, "mailFrameWidth": <CSS pixels> }` (the height that shows the page
         *     without scrolling, at the width it was measured at) to the embedding window whenever it may have changed
         *     (as the page loads, as its images load, when the frame is resized). With the script in the page the
         *     Content-Security-Policy carries `script-src 'nonce-<random per response>'` and `sandbox allow-scripts`
         *     (see `SignedHtmlContentSecurityPolicy`): only that script runs; the mail's own scripts, event handlers and
         *     `javascript:` URLs stay blocked, and the page keeps its opaque origin. Not covered by the signature.
         */
        ReportHeight: 0 | 1;
        /**
         * @description The colour scheme to show the page in, whatever the reader's system prefers, through the same preview
         *     script as `report_height` (browsers do not let a framing page set a frame's `prefers-color-scheme`; it
         *     follows the reader's system). `dark` shows the page as a mail client in dark mode does: the page's
         *     `(prefers-color-scheme: dark)` media queries, in its style sheets and `media` attributes, apply and its
         *     `(prefers-color-scheme: light)` ones do not, and a page that declares dark support (`color-scheme`, in a
         *     `<meta>` or its CSS) gets a dark canvas. `light` is the other way round, with a light canvas, so a reader
         *     whose system is dark still sees the light mail. Left out, the page is as it is. Not covered by the
         *     signature.
         */
        PreviewScheme: "light" | "dark";
        /**
         * @description A search expression. Terms are separated by white space and combine with AND. `OR` (upper case, as a
         *     word) between two terms makes a disjunction and binds tighter than AND:
         *     `from:alice OR from:bob subject:invoice` = (from:alice OR from:bob) AND subject:invoice. Parentheses
         *     group: `(a OR b) -c`. A leading `-` or `!` negates the term or group after it.
         *
         *     Free text — a word or a double-quoted phrase — is a case-insensitive substring of the subject, the From,
         *     To and Cc headers, the envelope sender, every envelope recipient, the text body or the text of the HTML
         *     body. A phrase matches its words in that order; runs of white space compare as one space. Case folding
         *     covers all of Unicode (`ÉCOLE` finds `école`); there is no other normalisation.
         *
         *     Operators (names and the values of `is:`/`has:` are case-insensitive; values may be double-quoted):
         *     `from:X` From header or envelope sender contains X; `to:X` To, Cc or Bcc header or any envelope recipient
         *     (Bcc included) contains X; `to-header:X` the To header alone contains X; `cc:X` the Cc header; `bcc:X`
         *     the Bcc header or an envelope recipient that no To or Cc header names; `reply-to:X` the Reply-To header;
         *     `addressed:X` any of From (or the envelope sender), To, Cc, Bcc and Reply-To as those operators read them;
         *     `message-id:X` the Message-ID header (angle brackets included); `subject:X`; `is:read`, `is:unread`,
         *     `is:tagged` (at least one tag); `tag:NAME` (exact, case-insensitive); `has:attachment` (or
         *     `has:attachments`); `has:inline` (or `has:inlines`: a part shown inside the message, marked inline or
         *     embedded by its HTML through cid:; such parts count as attachments too); `has:code` (or `has:codes`: a
         *     one-time code was found at capture, see MessageDetail.codes); `larger:N` and
         *     `smaller:N`, size strictly above or below N bytes, N with an optional k, m or g (1024-based), optional
         *     trailing b, decimals allowed (`1.5m`); `after:D` received at or after D, `before:D` received strictly
         *     before D, D an ISO 8601 date (`2026-11-20`, meaning 00:00 UTC) or a date-time with Z or an offset.
         *
         *     Exact addresses: an address operator followed by `=` and one address matches that address exactly instead
         *     of as a substring: `to:=alice@example.test`, and likewise `from:=`, `to-header:=`, `cc:=`, `bcc:=`,
         *     `reply-to:=` and `addressed:=`, each reading the lists its substring form reads (`to:=` every recipient:
         *     To, Cc, Bcc and the envelope's; `from:=` the From header's addresses and the envelope sender). It finds a
         *     message that names that mailbox, never one whose address merely contains it: `to:=alice@x.test` finds
         *     neither `ba@x.test`, `malice@x.test` nor `alice@x.test.evil`, nor the sub-address `alice+tag@x.test`, which
         *     is another mailbox (ask for both: `to:=alice@x.test OR to:=alice+tag@x.test`). Two spellings of one address
         *     are one address: the domain compares without regard to case (RFC 5321), and an internationalised domain is
         *     the same in Unicode and in punycode (`παράδειγμα.δοκιμή` is `xn--hxajbheg2az3al.xn--jxalpdlp`, by IDNA's
         *     UTS #46 mapping). The local part compares by what it says: quoting changes nothing (`"john.smith"@x.test`
         *     is `john.smith@x.test`; `"john smith"@x.test` keeps its space), UTF-8 compares in Unicode NFC, and case
         *     does not count either: RFC 5321 leaves a local part's case to the receiving host, and this service, the
         *     receiving host of every message it captures, takes `Alice` and `alice` for one mailbox as nearly every
         *     mail provider does, so a test finds its mail whether or not the application changed the case. Nothing
         *     else is folded: a look-alike letter of another script (Cyrillic `а` in `аlice`) makes another address.
         *     The value may be written plain (`to:=Alice@Example.test`), with its local part quoted
         *     (`to:="john smith"@example.test`), quoted whole, or in angle brackets. A value that is not one address
         *     (no `@` with something on each side, a control character, over 512 characters) answers 400
         *     `invalid_query`, as does `=` after any other operator (quote it, `subject:"=x"`, to search for `=x`). A
         *     query may hold 64 exact terms; they do not count against the text-term limits below. The `from` and `to`
         *     list parameters stay substrings. Exact terms are answered from an index of every message's addresses
         *     (the first 5,000 distinct ones of each list), written at capture: messages captured before it existed are
         *     found by them only once `scripts/reindex` has read them again.
         *
         *     A `word:rest` token whose word is not an operator is free text, so `https://example.com/x` is
         *     searchable. An invalid operator value (`larger:abc`, `after:yesterdayish`, `is:starred`), unbalanced
         *     quotes or parentheses, or a dangling `OR` or `-` answer 400 `invalid_query` naming the term and its
         *     position (1-based characters).
         *
         *     The header operators other than `from:`, `to:` and `subject:`, and `has:inline`, read fields that messages
         *     captured before they existed do not hold until `scripts/reindex` has read those messages again.
         *
         *     Each text term (free text, the header operators, and the `from`, `to` and `subject` list
         *     parameters) is a lookup of its own, so a query may hold at most 16 of them, with at most 512 characters
         *     over all their needles, and at most 4 of one or two characters (which no index serves). Past any of these
         *     the answer is 400 `invalid_query` saying which. Tag rules' queries and batch queries keep the same limits.
         *
         *     Every search runs off the event loop with a time budget, SANDBOX_QUERY_TIMEOUT_MS (default 2000 ms of
         *     running time; on the cluster profile Elasticsearch's own `timeout`). A search that overruns it is stopped
         *     and answers 422 `query_too_expensive`: narrow it (fewer or longer terms, `after:`/`since`, one inbox).
         *     A workspace runs SANDBOX_QUERY_THREADS minus one (default one) search at a time on each node, on either
         *     profile, and may have SANDBOX_QUERY_QUEUE_PER_WORKSPACE (default 100) searches waiting for its turn; more
         *     answer 429 `too_many_queries`. On the cluster profile each node holds both divided by SANDBOX_CLUSTER_NODES.
         */
        SearchQuery: string;
        /** @description The From header or the envelope sender contains this text (as `from:`). */
        FromFilter: string;
        /** @description The To or Cc header or any envelope recipient contains this text (as `to:`). */
        ToFilter: string;
        /** @description The subject contains this text (as `subject:`). */
        SubjectFilter: string;
        /** @description Only messages received at or after this time (as `after:`). */
        SinceFilter: string;
        /** @description Seconds to wait, greater than 0 and at most 30; fractions are allowed */
        WaitTimeout: number;
    };
    requestBodies: never;
    headers: {
        /** @description The browser takes the body as the declared type and never guesses another. */
        NoSniff: "nosniff";
        /** @description Pages of other sites cannot embed the file (as an image, script, stylesheet or media). */
        SameOriginResource: "same-origin";
        /** @description Links followed from the file do not tell where they were found. */
        NoReferrer: "no-referrer";
        /** @description A file that is not a page, opened in a browser, runs and loads nothing. */
        FileContentSecurityPolicy: "default-src 'none'; sandbox";
        /**
         * @description Mail HTML runs nothing: `sandbox` without allowances (no scripts, no forms, an opaque origin),
         *     `default-src 'none'`, `object-src 'none'`, `base-uri 'none'`, `form-action 'none'`,
         *     `frame-ancestors 'self'`. Remote content blocked (the default, `remote=0`): `img-src data: cid:;
         *     style-src 'unsafe-inline'; font-src data:`, so images and fonts come only from the message (its `cid:`
         *     images are inlined as `data:` URIs) and styles only from the page. With `remote=1`: `img-src data: cid: *;
         *     style-src 'unsafe-inline' *; font-src data: *`.
         */
        HtmlContentSecurityPolicy: "default-src 'none'; img-src data: cid:; style-src 'unsafe-inline'; font-src data:; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'self'; sandbox" | "default-src 'none'; img-src data: cid: *; style-src 'unsafe-inline' *; font-src data: *; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'self'; sandbox";
        /**
         * @description `HtmlContentSecurityPolicy`, or with `report_height=1` or a `scheme` the same with `script-src 'nonce-<base64 of 16
         *     random bytes>'` after `default-src 'none'` and `sandbox allow-scripts` in place of `sandbox`: the one
         *     script carrying that nonce (the server's preview script) runs, nothing of the mail's does, and the origin
         *     stays opaque.
         */
        SignedHtmlContentSecurityPolicy: string;
        /** @description Link prefetching, which the policy does not govern, is off, so a page cannot reach out through DNS either. */
        NoDnsPrefetch: "off";
        /**
         * @description `attachment` with the file name (RFC 6266; `filename*=UTF-8''...` for names beyond ASCII): a browser saves
         *     the file rather than showing it.
         */
        DownloadDisposition: string;
        /** @description `inline` with the file name: the thumbnail may show in place. */
        InlineDisposition: string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getWorkspace: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The workspace */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["Workspace"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            421: components["responses"]["MisdirectedRequest"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    getUsage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Usage */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["Usage"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            421: components["responses"]["MisdirectedRequest"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    listInboxes: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The inboxes */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["Inbox"][];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            421: components["responses"]["MisdirectedRequest"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    createInbox: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: components["schemas"]["InboxName"];
                };
            };
        };
        responses: {
            /** @description The new inbox with its credentials */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InboxWithCredentialsEnvelope"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["LimitReached"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            421: components["responses"]["MisdirectedRequest"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    getInbox: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Inbox id */
                id: components["parameters"]["InboxId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The inbox */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["Inbox"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            421: components["responses"]["MisdirectedRequest"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    deleteInbox: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Inbox id */
                id: components["parameters"]["InboxId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["DeletedMessages"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            421: components["responses"]["MisdirectedRequest"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    rotateInboxCredentials: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Inbox id */
                id: components["parameters"]["InboxId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The inbox with its new credentials */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InboxWithCredentialsEnvelope"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            421: components["responses"]["MisdirectedRequest"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    getInboxChaos: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Inbox id */
                id: components["parameters"]["InboxId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["ChaosSettings"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            421: components["responses"]["MisdirectedRequest"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    replaceInboxChaos: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Inbox id */
                id: components["parameters"]["InboxId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ChaosInput"];
            };
        };
        responses: {
            200: components["responses"]["ChaosSettings"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            421: components["responses"]["MisdirectedRequest"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    testInboxChaos: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Inbox id */
                id: components["parameters"]["InboxId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description What each stage would have done */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["ChaosTest"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            421: components["responses"]["MisdirectedRequest"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    listMessages: {
        parameters: {
            query?: {
                /**
                 * @description A search expression. Terms are separated by white space and combine with AND. `OR` (upper case, as a
                 *     word) between two terms makes a disjunction and binds tighter than AND:
                 *     `from:alice OR from:bob subject:invoice` = (from:alice OR from:bob) AND subject:invoice. Parentheses
                 *     group: `(a OR b) -c`. A leading `-` or `!` negates the term or group after it.
                 *
                 *     Free text — a word or a double-quoted phrase — is a case-insensitive substring of the subject, the From,
                 *     To and Cc headers, the envelope sender, every envelope recipient, the text body or the text of the HTML
                 *     body. A phrase matches its words in that order; runs of white space compare as one space. Case folding
                 *     covers all of Unicode (`ÉCOLE` finds `école`); there is no other normalisation.
                 *
                 *     Operators (names and the values of `is:`/`has:` are case-insensitive; values may be double-quoted):
                 *     `from:X` From header or envelope sender contains X; `to:X` To, Cc or Bcc header or any envelope recipient
                 *     (Bcc included) contains X; `to-header:X` the To header alone contains X; `cc:X` the Cc header; `bcc:X`
                 *     the Bcc header or an envelope recipient that no To or Cc header names; `reply-to:X` the Reply-To header;
                 *     `addressed:X` any of From (or the envelope sender), To, Cc, Bcc and Reply-To as those operators read them;
                 *     `message-id:X` the Message-ID header (angle brackets included); `subject:X`; `is:read`, `is:unread`,
                 *     `is:tagged` (at least one tag); `tag:NAME` (exact, case-insensitive); `has:attachment` (or
                 *     `has:attachments`); `has:inline` (or `has:inlines`: a part shown inside the message, marked inline or
                 *     embedded by its HTML through cid:; such parts count as attachments too); `has:code` (or `has:codes`: a
                 *     one-time code was found at capture, see MessageDetail.codes); `larger:N` and
                 *     `smaller:N`, size strictly above or below N bytes, N with an optional k, m or g (1024-based), optional
                 *     trailing b, decimals allowed (`1.5m`); `after:D` received at or after D, `before:D` received strictly
                 *     before D, D an ISO 8601 date (`2026-11-20`, meaning 00:00 UTC) or a date-time with Z or an offset.
                 *
                 *     Exact addresses: an address operator followed by `=` and one address matches that address exactly instead
                 *     of as a substring: `to:=alice@example.test`, and likewise `from:=`, `to-header:=`, `cc:=`, `bcc:=`,
                 *     `reply-to:=` and `addressed:=`, each reading the lists its substring form reads (`to:=` every recipient:
                 *     To, Cc, Bcc and the envelope's; `from:=` the From header's addresses and the envelope sender). It finds a
                 *     message that names that mailbox, never one whose address merely contains it: `to:=alice@x.test` finds
                 *     neither `ba@x.test`, `malice@x.test` nor `alice@x.test.evil`, nor the sub-address `alice+tag@x.test`, which
                 *     is another mailbox (ask for both: `to:=alice@x.test OR to:=alice+tag@x.test`). Two spellings of one address
                 *     are one address: the domain compares without regard to case (RFC 5321), and an internationalised domain is
                 *     the same in Unicode and in punycode (`παράδειγμα.δοκιμή` is `xn--hxajbheg2az3al.xn--jxalpdlp`, by IDNA's
                 *     UTS #46 mapping). The local part compares by what it says: quoting changes nothing (`"john.smith"@x.test`
                 *     is `john.smith@x.test`; `"john smith"@x.test` keeps its space), UTF-8 compares in Unicode NFC, and case
                 *     does not count either: RFC 5321 leaves a local part's case to the receiving host, and this service, the
                 *     receiving host of every message it captures, takes `Alice` and `alice` for one mailbox as nearly every
                 *     mail provider does, so a test finds its mail whether or not the application changed the case. Nothing
                 *     else is folded: a look-alike letter of another script (Cyrillic `а` in `аlice`) makes another address.
                 *     The value may be written plain (`to:=Alice@Example.test`), with its local part quoted
                 *     (`to:="john smith"@example.test`), quoted whole, or in angle brackets. A value that is not one address
                 *     (no `@` with something on each side, a control character, over 512 characters) answers 400
                 *     `invalid_query`, as does `=` after any other operator (quote it, `subject:"=x"`, to search for `=x`). A
                 *     query may hold 64 exact terms; they do not count against the text-term limits below. The `from` and `to`
                 *     list parameters stay substrings. Exact terms are answered from an index of every message's addresses
                 *     (the first 5,000 distinct ones of each list), written at capture: messages captured before it existed are
                 *     found by them only once `scripts/reindex` has read them again.
                 *
                 *     A `word:rest` token whose word is not an operator is free text, so `https://example.com/x` is
                 *     searchable. An invalid operator value (`larger:abc`, `after:yesterdayish`, `is:starred`), unbalanced
                 *     quotes or parentheses, or a dangling `OR` or `-` answer 400 `invalid_query` naming the term and its
                 *     position (1-based characters).
                 *
                 *     The header operators other than `from:`, `to:` and `subject:`, and `has:inline`, read fields that messages
                 *     captured before they existed do not hold until `scripts/reindex` has read those messages again.
                 *
                 *     Each text term (free text, the header operators, and the `from`, `to` and `subject` list
                 *     parameters) is a lookup of its own, so a query may hold at most 16 of them, with at most 512 characters
                 *     over all their needles, and at most 4 of one or two characters (which no index serves). Past any of these
                 *     the answer is 400 `invalid_query` saying which. Tag rules' queries and batch queries keep the same limits.
                 *
                 *     Every search runs off the event loop with a time budget, SANDBOX_QUERY_TIMEOUT_MS (default 2000 ms of
                 *     running time; on the cluster profile Elasticsearch's own `timeout`). A search that overruns it is stopped
                 *     and answers 422 `query_too_expensive`: narrow it (fewer or longer terms, `after:`/`since`, one inbox).
                 *     A workspace runs SANDBOX_QUERY_THREADS minus one (default one) search at a time on each node, on either
                 *     profile, and may have SANDBOX_QUERY_QUEUE_PER_WORKSPACE (default 100) searches waiting for its turn; more
                 *     answer 429 `too_many_queries`. On the cluster profile each node holds both divided by SANDBOX_CLUSTER_NODES.
                 */
                q?: components["parameters"]["SearchQuery"];
                /** @description The From header or the envelope sender contains this text (as `from:`). */
                from?: components["parameters"]["FromFilter"];
                /** @description The To or Cc header or any envelope recipient contains this text (as `to:`). */
                to?: components["parameters"]["ToFilter"];
                /** @description The subject contains this text (as `subject:`). */
                subject?: components["parameters"]["SubjectFilter"];
                /** @description Only messages received at or after this time (as `after:`). */
                since?: components["parameters"]["SinceFilter"];
                /** @description Page size */
                limit?: number;
                /** @description The next_cursor of the previous page */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description Inbox id */
                id: components["parameters"]["InboxId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of message summaries */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["MessageSummary"][];
                        /**
                         * @description Present when more messages may match: the page is full, or it stopped after examining
                         *     SANDBOX_SCAN_ROWS_PER_PAGE messages with more after them
                         */
                        next_cursor?: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            421: components["responses"]["MisdirectedRequest"];
            422: components["responses"]["QueryTooExpensive"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    clearInbox: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Inbox id */
                id: components["parameters"]["InboxId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["DeletedMessages"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            421: components["responses"]["MisdirectedRequest"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    countMessages: {
        parameters: {
            query?: {
                /**
                 * @description A search expression. Terms are separated by white space and combine with AND. `OR` (upper case, as a
                 *     word) between two terms makes a disjunction and binds tighter than AND:
                 *     `from:alice OR from:bob subject:invoice` = (from:alice OR from:bob) AND subject:invoice. Parentheses
                 *     group: `(a OR b) -c`. A leading `-` or `!` negates the term or group after it.
                 *
                 *     Free text — a word or a double-quoted phrase — is a case-insensitive substring of the subject, the From,
                 *     To and Cc headers, the envelope sender, every envelope recipient, the text body or the text of the HTML
                 *     body. A phrase matches its words in that order; runs of white space compare as one space. Case folding
                 *     covers all of Unicode (`ÉCOLE` finds `école`); there is no other normalisation.
                 *
                 *     Operators (names and the values of `is:`/`has:` are case-insensitive; values may be double-quoted):
                 *     `from:X` From header or envelope sender contains X; `to:X` To, Cc or Bcc header or any envelope recipient
                 *     (Bcc included) contains X; `to-header:X` the To header alone contains X; `cc:X` the Cc header; `bcc:X`
                 *     the Bcc header or an envelope recipient that no To or Cc header names; `reply-to:X` the Reply-To header;
                 *     `addressed:X` any of From (or the envelope sender), To, Cc, Bcc and Reply-To as those operators read them;
                 *     `message-id:X` the Message-ID header (angle brackets included); `subject:X`; `is:read`, `is:unread`,
                 *     `is:tagged` (at least one tag); `tag:NAME` (exact, case-insensitive); `has:attachment` (or
                 *     `has:attachments`); `has:inline` (or `has:inlines`: a part shown inside the message, marked inline or
                 *     embedded by its HTML through cid:; such parts count as attachments too); `has:code` (or `has:codes`: a
                 *     one-time code was found at capture, see MessageDetail.codes); `larger:N` and
                 *     `smaller:N`, size strictly above or below N bytes, N with an optional k, m or g (1024-based), optional
                 *     trailing b, decimals allowed (`1.5m`); `after:D` received at or after D, `before:D` received strictly
                 *     before D, D an ISO 8601 date (`2026-11-20`, meaning 00:00 UTC) or a date-time with Z or an offset.
                 *
                 *     Exact addresses: an address operator followed by `=` and one address matches that address exactly instead
                 *     of as a substring: `to:=alice@example.test`, and likewise `from:=`, `to-header:=`, `cc:=`, `bcc:=`,
                 *     `reply-to:=` and `addressed:=`, each reading the lists its substring form reads (`to:=` every recipient:
                 *     To, Cc, Bcc and the envelope's; `from:=` the From header's addresses and the envelope sender). It finds a
                 *     message that names that mailbox, never one whose address merely contains it: `to:=alice@x.test` finds
                 *     neither `ba@x.test`, `malice@x.test` nor `alice@x.test.evil`, nor the sub-address `alice+tag@x.test`, which
                 *     is another mailbox (ask for both: `to:=alice@x.test OR to:=alice+tag@x.test`). Two spellings of one address
                 *     are one address: the domain compares without regard to case (RFC 5321), and an internationalised domain is
                 *     the same in Unicode and in punycode (`παράδειγμα.δοκιμή` is `xn--hxajbheg2az3al.xn--jxalpdlp`, by IDNA's
                 *     UTS #46 mapping). The local part compares by what it says: quoting changes nothing (`"john.smith"@x.test`
                 *     is `john.smith@x.test`; `"john smith"@x.test` keeps its space), UTF-8 compares in Unicode NFC, and case
                 *     does not count either: RFC 5321 leaves a local part's case to the receiving host, and this service, the
                 *     receiving host of every message it captures, takes `Alice` and `alice` for one mailbox as nearly every
                 *     mail provider does, so a test finds its mail whether or not the application changed the case. Nothing
                 *     else is folded: a look-alike letter of another script (Cyrillic `а` in `аlice`) makes another address.
                 *     The value may be written plain (`to:=Alice@Example.test`), with its local part quoted
                 *     (`to:="john smith"@example.test`), quoted whole, or in angle brackets. A value that is not one address
                 *     (no `@` with something on each side, a control character, over 512 characters) answers 400
                 *     `invalid_query`, as does `=` after any other operator (quote it, `subject:"=x"`, to search for `=x`). A
                 *     query may hold 64 exact terms; they do not count against the text-term limits below. The `from` and `to`
                 *     list parameters stay substrings. Exact terms are answered from an index of every message's addresses
                 *     (the first 5,000 distinct ones of each list), written at capture: messages captured before it existed are
                 *     found by them only once `scripts/reindex` has read them again.
                 *
                 *     A `word:rest` token whose word is not an operator is free text, so `https://example.com/x` is
                 *     searchable. An invalid operator value (`larger:abc`, `after:yesterdayish`, `is:starred`), unbalanced
                 *     quotes or parentheses, or a dangling `OR` or `-` answer 400 `invalid_query` naming the term and its
                 *     position (1-based characters).
                 *
                 *     The header operators other than `from:`, `to:` and `subject:`, and `has:inline`, read fields that messages
                 *     captured before they existed do not hold until `scripts/reindex` has read those messages again.
                 *
                 *     Each text term (free text, the header operators, and the `from`, `to` and `subject` list
                 *     parameters) is a lookup of its own, so a query may hold at most 16 of them, with at most 512 characters
                 *     over all their needles, and at most 4 of one or two characters (which no index serves). Past any of these
                 *     the answer is 400 `invalid_query` saying which. Tag rules' queries and batch queries keep the same limits.
                 *
                 *     Every search runs off the event loop with a time budget, SANDBOX_QUERY_TIMEOUT_MS (default 2000 ms of
                 *     running time; on the cluster profile Elasticsearch's own `timeout`). A search that overruns it is stopped
                 *     and answers 422 `query_too_expensive`: narrow it (fewer or longer terms, `after:`/`since`, one inbox).
                 *     A workspace runs SANDBOX_QUERY_THREADS minus one (default one) search at a time on each node, on either
                 *     profile, and may have SANDBOX_QUERY_QUEUE_PER_WORKSPACE (default 100) searches waiting for its turn; more
                 *     answer 429 `too_many_queries`. On the cluster profile each node holds both divided by SANDBOX_CLUSTER_NODES.
                 */
                q?: components["parameters"]["SearchQuery"];
                /** @description The From header or the envelope sender contains this text (as `from:`). */
                from?: components["parameters"]["FromFilter"];
                /** @description The To or Cc header or any envelope recipient contains this text (as `to:`). */
                to?: components["parameters"]["ToFilter"];
                /** @description The subject contains this text (as `subject:`). */
                subject?: components["parameters"]["SubjectFilter"];
                /** @description Only messages received at or after this time (as `after:`). */
                since?: components["parameters"]["SinceFilter"];
            };
            header?: never;
            path: {
                /** @description Inbox id */
                id: components["parameters"]["InboxId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The counts */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["MessageCount"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            421: components["responses"]["MisdirectedRequest"];
            422: components["responses"]["QueryTooExpensive"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    waitForMessage: {
        parameters: {
            query?: {
                /**
                 * @description A search expression. Terms are separated by white space and combine with AND. `OR` (upper case, as a
                 *     word) between two terms makes a disjunction and binds tighter than AND:
                 *     `from:alice OR from:bob subject:invoice` = (from:alice OR from:bob) AND subject:invoice. Parentheses
                 *     group: `(a OR b) -c`. A leading `-` or `!` negates the term or group after it.
                 *
                 *     Free text — a word or a double-quoted phrase — is a case-insensitive substring of the subject, the From,
                 *     To and Cc headers, the envelope sender, every envelope recipient, the text body or the text of the HTML
                 *     body. A phrase matches its words in that order; runs of white space compare as one space. Case folding
                 *     covers all of Unicode (`ÉCOLE` finds `école`); there is no other normalisation.
                 *
                 *     Operators (names and the values of `is:`/`has:` are case-insensitive; values may be double-quoted):
                 *     `from:X` From header or envelope sender contains X; `to:X` To, Cc or Bcc header or any envelope recipient
                 *     (Bcc included) contains X; `to-header:X` the To header alone contains X; `cc:X` the Cc header; `bcc:X`
                 *     the Bcc header or an envelope recipient that no To or Cc header names; `reply-to:X` the Reply-To header;
                 *     `addressed:X` any of From (or the envelope sender), To, Cc, Bcc and Reply-To as those operators read them;
                 *     `message-id:X` the Message-ID header (angle brackets included); `subject:X`; `is:read`, `is:unread`,
                 *     `is:tagged` (at least one tag); `tag:NAME` (exact, case-insensitive); `has:attachment` (or
                 *     `has:attachments`); `has:inline` (or `has:inlines`: a part shown inside the message, marked inline or
                 *     embedded by its HTML through cid:; such parts count as attachments too); `has:code` (or `has:codes`: a
                 *     one-time code was found at capture, see MessageDetail.codes); `larger:N` and
                 *     `smaller:N`, size strictly above or below N bytes, N with an optional k, m or g (1024-based), optional
                 *     trailing b, decimals allowed (`1.5m`); `after:D` received at or after D, `before:D` received strictly
                 *     before D, D an ISO 8601 date (`2026-11-20`, meaning 00:00 UTC) or a date-time with Z or an offset.
                 *
                 *     Exact addresses: an address operator followed by `=` and one address matches that address exactly instead
                 *     of as a substring: `to:=alice@example.test`, and likewise `from:=`, `to-header:=`, `cc:=`, `bcc:=`,
                 *     `reply-to:=` and `addressed:=`, each reading the lists its substring form reads (`to:=` every recipient:
                 *     To, Cc, Bcc and the envelope's; `from:=` the From header's addresses and the envelope sender). It finds a
                 *     message that names that mailbox, never one whose address merely contains it: `to:=alice@x.test` finds
                 *     neither `ba@x.test`, `malice@x.test` nor `alice@x.test.evil`, nor the sub-address `alice+tag@x.test`, which
                 *     is another mailbox (ask for both: `to:=alice@x.test OR to:=alice+tag@x.test`). Two spellings of one address
                 *     are one address: the domain compares without regard to case (RFC 5321), and an internationalised domain is
                 *     the same in Unicode and in punycode (`παράδειγμα.δοκιμή` is `xn--hxajbheg2az3al.xn--jxalpdlp`, by IDNA's
                 *     UTS #46 mapping). The local part compares by what it says: quoting changes nothing (`"john.smith"@x.test`
                 *     is `john.smith@x.test`; `"john smith"@x.test` keeps its space), UTF-8 compares in Unicode NFC, and case
                 *     does not count either: RFC 5321 leaves a local part's case to the receiving host, and this service, the
                 *     receiving host of every message it captures, takes `Alice` and `alice` for one mailbox as nearly every
                 *     mail provider does, so a test finds its mail whether or not the application changed the case. Nothing
                 *     else is folded: a look-alike letter of another script (Cyrillic `а` in `аlice`) makes another address.
                 *     The value may be written plain (`to:=Alice@Example.test`), with its local part quoted
                 *     (`to:="john smith"@example.test`), quoted whole, or in angle brackets. A value that is not one address
                 *     (no `@` with something on each side, a control character, over 512 characters) answers 400
                 *     `invalid_query`, as does `=` after any other operator (quote it, `subject:"=x"`, to search for `=x`). A
                 *     query may hold 64 exact terms; they do not count against the text-term limits below. The `from` and `to`
                 *     list parameters stay substrings. Exact terms are answered from an index of every message's addresses
                 *     (the first 5,000 distinct ones of each list), written at capture: messages captured before it existed are
                 *     found by them only once `scripts/reindex` has read them again.
                 *
                 *     A `word:rest` token whose word is not an operator is free text, so `https://example.com/x` is
                 *     searchable. An invalid operator value (`larger:abc`, `after:yesterdayish`, `is:starred`), unbalanced
                 *     quotes or parentheses, or a dangling `OR` or `-` answer 400 `invalid_query` naming the term and its
                 *     position (1-based characters).
                 *
                 *     The header operators other than `from:`, `to:` and `subject:`, and `has:inline`, read fields that messages
                 *     captured before they existed do not hold until `scripts/reindex` has read those messages again.
                 *
                 *     Each text term (free text, the header operators, and the `from`, `to` and `subject` list
                 *     parameters) is a lookup of its own, so a query may hold at most 16 of them, with at most 512 characters
                 *     over all their needles, and at most 4 of one or two characters (which no index serves). Past any of these
                 *     the answer is 400 `invalid_query` saying which. Tag rules' queries and batch queries keep the same limits.
                 *
                 *     Every search runs off the event loop with a time budget, SANDBOX_QUERY_TIMEOUT_MS (default 2000 ms of
                 *     running time; on the cluster profile Elasticsearch's own `timeout`). A search that overruns it is stopped
                 *     and answers 422 `query_too_expensive`: narrow it (fewer or longer terms, `after:`/`since`, one inbox).
                 *     A workspace runs SANDBOX_QUERY_THREADS minus one (default one) search at a time on each node, on either
                 *     profile, and may have SANDBOX_QUERY_QUEUE_PER_WORKSPACE (default 100) searches waiting for its turn; more
                 *     answer 429 `too_many_queries`. On the cluster profile each node holds both divided by SANDBOX_CLUSTER_NODES.
                 */
                q?: components["parameters"]["SearchQuery"];
                /** @description The From header or the envelope sender contains this text (as `from:`). */
                from?: components["parameters"]["FromFilter"];
                /** @description The To or Cc header or any envelope recipient contains this text (as `to:`). */
                to?: components["parameters"]["ToFilter"];
                /** @description The subject contains this text (as `subject:`). */
                subject?: components["parameters"]["SubjectFilter"];
                /** @description Only messages received at or after this time (as `after:`). */
                since?: components["parameters"]["SinceFilter"];
                /** @description Seconds to wait, greater than 0 and at most 30; fractions are allowed */
                timeout?: components["parameters"]["WaitTimeout"];
            };
            header?: never;
            path: {
                /** @description Inbox id */
                id: components["parameters"]["InboxId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The matching message */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["MessageDetail"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["WaitTimedOut"];
            421: components["responses"]["MisdirectedRequest"];
            422: components["responses"]["QueryTooExpensive"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    waitForMessages: {
        parameters: {
            query?: {
                /**
                 * @description A search expression. Terms are separated by white space and combine with AND. `OR` (upper case, as a
                 *     word) between two terms makes a disjunction and binds tighter than AND:
                 *     `from:alice OR from:bob subject:invoice` = (from:alice OR from:bob) AND subject:invoice. Parentheses
                 *     group: `(a OR b) -c`. A leading `-` or `!` negates the term or group after it.
                 *
                 *     Free text — a word or a double-quoted phrase — is a case-insensitive substring of the subject, the From,
                 *     To and Cc headers, the envelope sender, every envelope recipient, the text body or the text of the HTML
                 *     body. A phrase matches its words in that order; runs of white space compare as one space. Case folding
                 *     covers all of Unicode (`ÉCOLE` finds `école`); there is no other normalisation.
                 *
                 *     Operators (names and the values of `is:`/`has:` are case-insensitive; values may be double-quoted):
                 *     `from:X` From header or envelope sender contains X; `to:X` To, Cc or Bcc header or any envelope recipient
                 *     (Bcc included) contains X; `to-header:X` the To header alone contains X; `cc:X` the Cc header; `bcc:X`
                 *     the Bcc header or an envelope recipient that no To or Cc header names; `reply-to:X` the Reply-To header;
                 *     `addressed:X` any of From (or the envelope sender), To, Cc, Bcc and Reply-To as those operators read them;
                 *     `message-id:X` the Message-ID header (angle brackets included); `subject:X`; `is:read`, `is:unread`,
                 *     `is:tagged` (at least one tag); `tag:NAME` (exact, case-insensitive); `has:attachment` (or
                 *     `has:attachments`); `has:inline` (or `has:inlines`: a part shown inside the message, marked inline or
                 *     embedded by its HTML through cid:; such parts count as attachments too); `has:code` (or `has:codes`: a
                 *     one-time code was found at capture, see MessageDetail.codes); `larger:N` and
                 *     `smaller:N`, size strictly above or below N bytes, N with an optional k, m or g (1024-based), optional
                 *     trailing b, decimals allowed (`1.5m`); `after:D` received at or after D, `before:D` received strictly
                 *     before D, D an ISO 8601 date (`2026-11-20`, meaning 00:00 UTC) or a date-time with Z or an offset.
                 *
                 *     Exact addresses: an address operator followed by `=` and one address matches that address exactly instead
                 *     of as a substring: `to:=alice@example.test`, and likewise `from:=`, `to-header:=`, `cc:=`, `bcc:=`,
                 *     `reply-to:=` and `addressed:=`, each reading the lists its substring form reads (`to:=` every recipient:
                 *     To, Cc, Bcc and the envelope's; `from:=` the From header's addresses and the envelope sender). It finds a
                 *     message that names that mailbox, never one whose address merely contains it: `to:=alice@x.test` finds
                 *     neither `ba@x.test`, `malice@x.test` nor `alice@x.test.evil`, nor the sub-address `alice+tag@x.test`, which
                 *     is another mailbox (ask for both: `to:=alice@x.test OR to:=alice+tag@x.test`). Two spellings of one address
                 *     are one address: the domain compares without regard to case (RFC 5321), and an internationalised domain is
                 *     the same in Unicode and in punycode (`παράδειγμα.δοκιμή` is `xn--hxajbheg2az3al.xn--jxalpdlp`, by IDNA's
                 *     UTS #46 mapping). The local part compares by what it says: quoting changes nothing (`"john.smith"@x.test`
                 *     is `john.smith@x.test`; `"john smith"@x.test` keeps its space), UTF-8 compares in Unicode NFC, and case
                 *     does not count either: RFC 5321 leaves a local part's case to the receiving host, and this service, the
                 *     receiving host of every message it captures, takes `Alice` and `alice` for one mailbox as nearly every
                 *     mail provider does, so a test finds its mail whether or not the application changed the case. Nothing
                 *     else is folded: a look-alike letter of another script (Cyrillic `а` in `аlice`) makes another address.
                 *     The value may be written plain (`to:=Alice@Example.test`), with its local part quoted
                 *     (`to:="john smith"@example.test`), quoted whole, or in angle brackets. A value that is not one address
                 *     (no `@` with something on each side, a control character, over 512 characters) answers 400
                 *     `invalid_query`, as does `=` after any other operator (quote it, `subject:"=x"`, to search for `=x`). A
                 *     query may hold 64 exact terms; they do not count against the text-term limits below. The `from` and `to`
                 *     list parameters stay substrings. Exact terms are answered from an index of every message's addresses
                 *     (the first 5,000 distinct ones of each list), written at capture: messages captured before it existed are
                 *     found by them only once `scripts/reindex` has read them again.
                 *
                 *     A `word:rest` token whose word is not an operator is free text, so `https://example.com/x` is
                 *     searchable. An invalid operator value (`larger:abc`, `after:yesterdayish`, `is:starred`), unbalanced
                 *     quotes or parentheses, or a dangling `OR` or `-` answer 400 `invalid_query` naming the term and its
                 *     position (1-based characters).
                 *
                 *     The header operators other than `from:`, `to:` and `subject:`, and `has:inline`, read fields that messages
                 *     captured before they existed do not hold until `scripts/reindex` has read those messages again.
                 *
                 *     Each text term (free text, the header operators, and the `from`, `to` and `subject` list
                 *     parameters) is a lookup of its own, so a query may hold at most 16 of them, with at most 512 characters
                 *     over all their needles, and at most 4 of one or two characters (which no index serves). Past any of these
                 *     the answer is 400 `invalid_query` saying which. Tag rules' queries and batch queries keep the same limits.
                 *
                 *     Every search runs off the event loop with a time budget, SANDBOX_QUERY_TIMEOUT_MS (default 2000 ms of
                 *     running time; on the cluster profile Elasticsearch's own `timeout`). A search that overruns it is stopped
                 *     and answers 422 `query_too_expensive`: narrow it (fewer or longer terms, `after:`/`since`, one inbox).
                 *     A workspace runs SANDBOX_QUERY_THREADS minus one (default one) search at a time on each node, on either
                 *     profile, and may have SANDBOX_QUERY_QUEUE_PER_WORKSPACE (default 100) searches waiting for its turn; more
                 *     answer 429 `too_many_queries`. On the cluster profile each node holds both divided by SANDBOX_CLUSTER_NODES.
                 */
                q?: components["parameters"]["SearchQuery"];
                /** @description The From header or the envelope sender contains this text (as `from:`). */
                from?: components["parameters"]["FromFilter"];
                /** @description The To or Cc header or any envelope recipient contains this text (as `to:`). */
                to?: components["parameters"]["ToFilter"];
                /** @description The subject contains this text (as `subject:`). */
                subject?: components["parameters"]["SubjectFilter"];
                /** @description Only messages received at or after this time (as `after:`). */
                since?: components["parameters"]["SinceFilter"];
                /** @description How many matching messages to wait for, 1 to 50 */
                count?: number;
                /** @description Seconds to wait, greater than 0 and at most 30; fractions are allowed */
                timeout?: components["parameters"]["WaitTimeout"];
            };
            header?: never;
            path: {
                /** @description Inbox id */
                id: components["parameters"]["InboxId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The newest `count` matching messages, oldest first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["MessageDetail"][];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["WaitTimedOut"];
            421: components["responses"]["MisdirectedRequest"];
            422: components["responses"]["QueryTooExpensive"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    waitForNoMessage: {
        parameters: {
            query?: {
                /**
                 * @description A search expression. Terms are separated by white space and combine with AND. `OR` (upper case, as a
                 *     word) between two terms makes a disjunction and binds tighter than AND:
                 *     `from:alice OR from:bob subject:invoice` = (from:alice OR from:bob) AND subject:invoice. Parentheses
                 *     group: `(a OR b) -c`. A leading `-` or `!` negates the term or group after it.
                 *
                 *     Free text — a word or a double-quoted phrase — is a case-insensitive substring of the subject, the From,
                 *     To and Cc headers, the envelope sender, every envelope recipient, the text body or the text of the HTML
                 *     body. A phrase matches its words in that order; runs of white space compare as one space. Case folding
                 *     covers all of Unicode (`ÉCOLE` finds `école`); there is no other normalisation.
                 *
                 *     Operators (names and the values of `is:`/`has:` are case-insensitive; values may be double-quoted):
                 *     `from:X` From header or envelope sender contains X; `to:X` To, Cc or Bcc header or any envelope recipient
                 *     (Bcc included) contains X; `to-header:X` the To header alone contains X; `cc:X` the Cc header; `bcc:X`
                 *     the Bcc header or an envelope recipient that no To or Cc header names; `reply-to:X` the Reply-To header;
                 *     `addressed:X` any of From (or the envelope sender), To, Cc, Bcc and Reply-To as those operators read them;
                 *     `message-id:X` the Message-ID header (angle brackets included); `subject:X`; `is:read`, `is:unread`,
                 *     `is:tagged` (at least one tag); `tag:NAME` (exact, case-insensitive); `has:attachment` (or
                 *     `has:attachments`); `has:inline` (or `has:inlines`: a part shown inside the message, marked inline or
                 *     embedded by its HTML through cid:; such parts count as attachments too); `has:code` (or `has:codes`: a
                 *     one-time code was found at capture, see MessageDetail.codes); `larger:N` and
                 *     `smaller:N`, size strictly above or below N bytes, N with an optional k, m or g (1024-based), optional
                 *     trailing b, decimals allowed (`1.5m`); `after:D` received at or after D, `before:D` received strictly
                 *     before D, D an ISO 8601 date (`2026-11-20`, meaning 00:00 UTC) or a date-time with Z or an offset.
                 *
                 *     Exact addresses: an address operator followed by `=` and one address matches that address exactly instead
                 *     of as a substring: `to:=alice@example.test`, and likewise `from:=`, `to-header:=`, `cc:=`, `bcc:=`,
                 *     `reply-to:=` and `addressed:=`, each reading the lists its substring form reads (`to:=` every recipient:
                 *     To, Cc, Bcc and the envelope's; `from:=` the From header's addresses and the envelope sender). It finds a
                 *     message that names that mailbox, never one whose address merely contains it: `to:=alice@x.test` finds
                 *     neither `ba@x.test`, `malice@x.test` nor `alice@x.test.evil`, nor the sub-address `alice+tag@x.test`, which
                 *     is another mailbox (ask for both: `to:=alice@x.test OR to:=alice+tag@x.test`). Two spellings of one address
                 *     are one address: the domain compares without regard to case (RFC 5321), and an internationalised domain is
                 *     the same in Unicode and in punycode (`παράδειγμα.δοκιμή` is `xn--hxajbheg2az3al.xn--jxalpdlp`, by IDNA's
                 *     UTS #46 mapping). The local part compares by what it says: quoting changes nothing (`"john.smith"@x.test`
                 *     is `john.smith@x.test`; `"john smith"@x.test` keeps its space), UTF-8 compares in Unicode NFC, and case
                 *     does not count either: RFC 5321 leaves a local part's case to the receiving host, and this service, the
                 *     receiving host of every message it captures, takes `Alice` and `alice` for one mailbox as nearly every
                 *     mail provider does, so a test finds its mail whether or not the application changed the case. Nothing
                 *     else is folded: a look-alike letter of another script (Cyrillic `а` in `аlice`) makes another address.
                 *     The value may be written plain (`to:=Alice@Example.test`), with its local part quoted
                 *     (`to:="john smith"@example.test`), quoted whole, or in angle brackets. A value that is not one address
                 *     (no `@` with something on each side, a control character, over 512 characters) answers 400
                 *     `invalid_query`, as does `=` after any other operator (quote it, `subject:"=x"`, to search for `=x`). A
                 *     query may hold 64 exact terms; they do not count against the text-term limits below. The `from` and `to`
                 *     list parameters stay substrings. Exact terms are answered from an index of every message's addresses
                 *     (the first 5,000 distinct ones of each list), written at capture: messages captured before it existed are
                 *     found by them only once `scripts/reindex` has read them again.
                 *
                 *     A `word:rest` token whose word is not an operator is free text, so `https://example.com/x` is
                 *     searchable. An invalid operator value (`larger:abc`, `after:yesterdayish`, `is:starred`), unbalanced
                 *     quotes or parentheses, or a dangling `OR` or `-` answer 400 `invalid_query` naming the term and its
                 *     position (1-based characters).
                 *
                 *     The header operators other than `from:`, `to:` and `subject:`, and `has:inline`, read fields that messages
                 *     captured before they existed do not hold until `scripts/reindex` has read those messages again.
                 *
                 *     Each text term (free text, the header operators, and the `from`, `to` and `subject` list
                 *     parameters) is a lookup of its own, so a query may hold at most 16 of them, with at most 512 characters
                 *     over all their needles, and at most 4 of one or two characters (which no index serves). Past any of these
                 *     the answer is 400 `invalid_query` saying which. Tag rules' queries and batch queries keep the same limits.
                 *
                 *     Every search runs off the event loop with a time budget, SANDBOX_QUERY_TIMEOUT_MS (default 2000 ms of
                 *     running time; on the cluster profile Elasticsearch's own `timeout`). A search that overruns it is stopped
                 *     and answers 422 `query_too_expensive`: narrow it (fewer or longer terms, `after:`/`since`, one inbox).
                 *     A workspace runs SANDBOX_QUERY_THREADS minus one (default one) search at a time on each node, on either
                 *     profile, and may have SANDBOX_QUERY_QUEUE_PER_WORKSPACE (default 100) searches waiting for its turn; more
                 *     answer 429 `too_many_queries`. On the cluster profile each node holds both divided by SANDBOX_CLUSTER_NODES.
                 */
                q?: components["parameters"]["SearchQuery"];
                /** @description The From header or the envelope sender contains this text (as `from:`). */
                from?: components["parameters"]["FromFilter"];
                /** @description The To or Cc header or any envelope recipient contains this text (as `to:`). */
                to?: components["parameters"]["ToFilter"];
                /** @description The subject contains this text (as `subject:`). */
                subject?: components["parameters"]["SubjectFilter"];
                /** @description Only messages received at or after this time (as `after:`). */
                since?: components["parameters"]["SinceFilter"];
                /** @description Seconds to wait, greater than 0 and at most 30; fractions are allowed */
                timeout?: components["parameters"]["WaitTimeout"];
            };
            header?: never;
            path: {
                /** @description Inbox id */
                id: components["parameters"]["InboxId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No matching message within the timeout */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /**
                             * Format: date-time
                             * @description The server's clock when the wait ended
                             */
                            watched_until: string;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            /** @description A matching message exists or arrived (`unexpected_message`); `error.found` is it */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            421: components["responses"]["MisdirectedRequest"];
            422: components["responses"]["QueryTooExpensive"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    markInbox: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Inbox id */
                id: components["parameters"]["InboxId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The mark */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["InboxMark"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            421: components["responses"]["MisdirectedRequest"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    streamInboxEvents: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `id` of the last event received, to resume after it */
                "Last-Event-ID"?: string;
            };
            path: {
                /** @description Inbox id */
                id: components["parameters"]["InboxId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The event stream (see the description for the event format) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": components["schemas"]["StreamEvent"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            421: components["responses"]["MisdirectedRequest"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    getMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Message id */
                id: components["parameters"]["MessageId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The message */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["MessageDetail"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            421: components["responses"]["MisdirectedRequest"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    deleteMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Message id */
                id: components["parameters"]["MessageId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["DeletedMessages"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            421: components["responses"]["MisdirectedRequest"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    getMessageRaw: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Message id */
                id: components["parameters"]["MessageId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["RawMessage"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            421: components["responses"]["MisdirectedRequest"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    sendMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Inbox id */
                id: components["parameters"]["InboxId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SendRequest"];
            };
        };
        responses: {
            /** @description The id of the stored message */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            id: string;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["QuotaReached"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["MessageTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            421: components["responses"]["MisdirectedRequest"];
            422: components["responses"]["AnalysisLimit"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    viewLatestHtml: {
        parameters: {
            query?: {
                /**
                 * @description A search expression. Terms are separated by white space and combine with AND. `OR` (upper case, as a
                 *     word) between two terms makes a disjunction and binds tighter than AND:
                 *     `from:alice OR from:bob subject:invoice` = (from:alice OR from:bob) AND subject:invoice. Parentheses
                 *     group: `(a OR b) -c`. A leading `-` or `!` negates the term or group after it.
                 *
                 *     Free text — a word or a double-quoted phrase — is a case-insensitive substring of the subject, the From,
                 *     To and Cc headers, the envelope sender, every envelope recipient, the text body or the text of the HTML
                 *     body. A phrase matches its words in that order; runs of white space compare as one space. Case folding
                 *     covers all of Unicode (`ÉCOLE` finds `école`); there is no other normalisation.
                 *
                 *     Operators (names and the values of `is:`/`has:` are case-insensitive; values may be double-quoted):
                 *     `from:X` From header or envelope sender contains X; `to:X` To, Cc or Bcc header or any envelope recipient
                 *     (Bcc included) contains X; `to-header:X` the To header alone contains X; `cc:X` the Cc header; `bcc:X`
                 *     the Bcc header or an envelope recipient that no To or Cc header names; `reply-to:X` the Reply-To header;
                 *     `addressed:X` any of From (or the envelope sender), To, Cc, Bcc and Reply-To as those operators read them;
                 *     `message-id:X` the Message-ID header (angle brackets included); `subject:X`; `is:read`, `is:unread`,
                 *     `is:tagged` (at least one tag); `tag:NAME` (exact, case-insensitive); `has:attachment` (or
                 *     `has:attachments`); `has:inline` (or `has:inlines`: a part shown inside the message, marked inline or
                 *     embedded by its HTML through cid:; such parts count as attachments too); `has:code` (or `has:codes`: a
                 *     one-time code was found at capture, see MessageDetail.codes); `larger:N` and
                 *     `smaller:N`, size strictly above or below N bytes, N with an optional k, m or g (1024-based), optional
                 *     trailing b, decimals allowed (`1.5m`); `after:D` received at or after D, `before:D` received strictly
                 *     before D, D an ISO 8601 date (`2026-11-20`, meaning 00:00 UTC) or a date-time with Z or an offset.
                 *
                 *     Exact addresses: an address operator followed by `=` and one address matches that address exactly instead
                 *     of as a substring: `to:=alice@example.test`, and likewise `from:=`, `to-header:=`, `cc:=`, `bcc:=`,
                 *     `reply-to:=` and `addressed:=`, each reading the lists its substring form reads (`to:=` every recipient:
                 *     To, Cc, Bcc and the envelope's; `from:=` the From header's addresses and the envelope sender). It finds a
                 *     message that names that mailbox, never one whose address merely contains it: `to:=alice@x.test` finds
                 *     neither `ba@x.test`, `malice@x.test` nor `alice@x.test.evil`, nor the sub-address `alice+tag@x.test`, which
                 *     is another mailbox (ask for both: `to:=alice@x.test OR to:=alice+tag@x.test`). Two spellings of one address
                 *     are one address: the domain compares without regard to case (RFC 5321), and an internationalised domain is
                 *     the same in Unicode and in punycode (`παράδειγμα.δοκιμή` is `xn--hxajbheg2az3al.xn--jxalpdlp`, by IDNA's
                 *     UTS #46 mapping). The local part compares by what it says: quoting changes nothing (`"john.smith"@x.test`
                 *     is `john.smith@x.test`; `"john smith"@x.test` keeps its space), UTF-8 compares in Unicode NFC, and case
                 *     does not count either: RFC 5321 leaves a local part's case to the receiving host, and this service, the
                 *     receiving host of every message it captures, takes `Alice` and `alice` for one mailbox as nearly every
                 *     mail provider does, so a test finds its mail whether or not the application changed the case. Nothing
                 *     else is folded: a look-alike letter of another script (Cyrillic `а` in `аlice`) makes another address.
                 *     The value may be written plain (`to:=Alice@Example.test`), with its local part quoted
                 *     (`to:="john smith"@example.test`), quoted whole, or in angle brackets. A value that is not one address
                 *     (no `@` with something on each side, a control character, over 512 characters) answers 400
                 *     `invalid_query`, as does `=` after any other operator (quote it, `subject:"=x"`, to search for `=x`). A
                 *     query may hold 64 exact terms; they do not count against the text-term limits below. The `from` and `to`
                 *     list parameters stay substrings. Exact terms are answered from an index of every message's addresses
                 *     (the first 5,000 distinct ones of each list), written at capture: messages captured before it existed are
                 *     found by them only once `scripts/reindex` has read them again.
                 *
                 *     A `word:rest` token whose word is not an operator is free text, so `https://example.com/x` is
                 *     searchable. An invalid operator value (`larger:abc`, `after:yesterdayish`, `is:starred`), unbalanced
                 *     quotes or parentheses, or a dangling `OR` or `-` answer 400 `invalid_query` naming the term and its
                 *     position (1-based characters).
                 *
                 *     The header operators other than `from:`, `to:` and `subject:`, and `has:inline`, read fields that messages
                 *     captured before they existed do not hold until `scripts/reindex` has read those messages again.
                 *
                 *     Each text term (free text, the header operators, and the `from`, `to` and `subject` list
                 *     parameters) is a lookup of its own, so a query may hold at most 16 of them, with at most 512 characters
                 *     over all their needles, and at most 4 of one or two characters (which no index serves). Past any of these
                 *     the answer is 400 `invalid_query` saying which. Tag rules' queries and batch queries keep the same limits.
                 *
                 *     Every search runs off the event loop with a time budget, SANDBOX_QUERY_TIMEOUT_MS (default 2000 ms of
                 *     running time; on the cluster profile Elasticsearch's own `timeout`). A search that overruns it is stopped
                 *     and answers 422 `query_too_expensive`: narrow it (fewer or longer terms, `after:`/`since`, one inbox).
                 *     A workspace runs SANDBOX_QUERY_THREADS minus one (default one) search at a time on each node, on either
                 *     profile, and may have SANDBOX_QUERY_QUEUE_PER_WORKSPACE (default 100) searches waiting for its turn; more
                 *     answer 429 `too_many_queries`. On the cluster profile each node holds both divided by SANDBOX_CLUSTER_NODES.
                 */
                q?: components["parameters"]["SearchQuery"];
                /**
                 * @description `1` lets the page load images, stylesheets and fonts from anywhere, as a mail client that shows remote
                 *     content does. `0` (the default) blocks them, so opening a message does not tell its sender: images and
                 *     fonts come only from the message itself (`data:` URIs; its `cid:` images are inlined as such) and styles
                 *     only from the page (no `@import`, no `<link rel=stylesheet>`). Scripts never run either way. On a signed
                 *     link it is not covered by the signature.
                 */
                remote?: components["parameters"]["RemoteContent"];
            };
            header?: never;
            path: {
                inbox_id: components["parameters"]["ViewInboxId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["RenderedHtml"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            421: components["responses"]["MisdirectedRequest"];
            422: components["responses"]["AnalysisLimit"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    viewLatestText: {
        parameters: {
            query?: {
                /**
                 * @description A search expression. Terms are separated by white space and combine with AND. `OR` (upper case, as a
                 *     word) between two terms makes a disjunction and binds tighter than AND:
                 *     `from:alice OR from:bob subject:invoice` = (from:alice OR from:bob) AND subject:invoice. Parentheses
                 *     group: `(a OR b) -c`. A leading `-` or `!` negates the term or group after it.
                 *
                 *     Free text — a word or a double-quoted phrase — is a case-insensitive substring of the subject, the From,
                 *     To and Cc headers, the envelope sender, every envelope recipient, the text body or the text of the HTML
                 *     body. A phrase matches its words in that order; runs of white space compare as one space. Case folding
                 *     covers all of Unicode (`ÉCOLE` finds `école`); there is no other normalisation.
                 *
                 *     Operators (names and the values of `is:`/`has:` are case-insensitive; values may be double-quoted):
                 *     `from:X` From header or envelope sender contains X; `to:X` To, Cc or Bcc header or any envelope recipient
                 *     (Bcc included) contains X; `to-header:X` the To header alone contains X; `cc:X` the Cc header; `bcc:X`
                 *     the Bcc header or an envelope recipient that no To or Cc header names; `reply-to:X` the Reply-To header;
                 *     `addressed:X` any of From (or the envelope sender), To, Cc, Bcc and Reply-To as those operators read them;
                 *     `message-id:X` the Message-ID header (angle brackets included); `subject:X`; `is:read`, `is:unread`,
                 *     `is:tagged` (at least one tag); `tag:NAME` (exact, case-insensitive); `has:attachment` (or
                 *     `has:attachments`); `has:inline` (or `has:inlines`: a part shown inside the message, marked inline or
                 *     embedded by its HTML through cid:; such parts count as attachments too); `has:code` (or `has:codes`: a
                 *     one-time code was found at capture, see MessageDetail.codes); `larger:N` and
                 *     `smaller:N`, size strictly above or below N bytes, N with an optional k, m or g (1024-based), optional
                 *     trailing b, decimals allowed (`1.5m`); `after:D` received at or after D, `before:D` received strictly
                 *     before D, D an ISO 8601 date (`2026-11-20`, meaning 00:00 UTC) or a date-time with Z or an offset.
                 *
                 *     Exact addresses: an address operator followed by `=` and one address matches that address exactly instead
                 *     of as a substring: `to:=alice@example.test`, and likewise `from:=`, `to-header:=`, `cc:=`, `bcc:=`,
                 *     `reply-to:=` and `addressed:=`, each reading the lists its substring form reads (`to:=` every recipient:
                 *     To, Cc, Bcc and the envelope's; `from:=` the From header's addresses and the envelope sender). It finds a
                 *     message that names that mailbox, never one whose address merely contains it: `to:=alice@x.test` finds
                 *     neither `ba@x.test`, `malice@x.test` nor `alice@x.test.evil`, nor the sub-address `alice+tag@x.test`, which
                 *     is another mailbox (ask for both: `to:=alice@x.test OR to:=alice+tag@x.test`). Two spellings of one address
                 *     are one address: the domain compares without regard to case (RFC 5321), and an internationalised domain is
                 *     the same in Unicode and in punycode (`παράδειγμα.δοκιμή` is `xn--hxajbheg2az3al.xn--jxalpdlp`, by IDNA's
                 *     UTS #46 mapping). The local part compares by what it says: quoting changes nothing (`"john.smith"@x.test`
                 *     is `john.smith@x.test`; `"john smith"@x.test` keeps its space), UTF-8 compares in Unicode NFC, and case
                 *     does not count either: RFC 5321 leaves a local part's case to the receiving host, and this service, the
                 *     receiving host of every message it captures, takes `Alice` and `alice` for one mailbox as nearly every
                 *     mail provider does, so a test finds its mail whether or not the application changed the case. Nothing
                 *     else is folded: a look-alike letter of another script (Cyrillic `а` in `аlice`) makes another address.
                 *     The value may be written plain (`to:=Alice@Example.test`), with its local part quoted
                 *     (`to:="john smith"@example.test`), quoted whole, or in angle brackets. A value that is not one address
                 *     (no `@` with something on each side, a control character, over 512 characters) answers 400
                 *     `invalid_query`, as does `=` after any other operator (quote it, `subject:"=x"`, to search for `=x`). A
                 *     query may hold 64 exact terms; they do not count against the text-term limits below. The `from` and `to`
                 *     list parameters stay substrings. Exact terms are answered from an index of every message's addresses
                 *     (the first 5,000 distinct ones of each list), written at capture: messages captured before it existed are
                 *     found by them only once `scripts/reindex` has read them again.
                 *
                 *     A `word:rest` token whose word is not an operator is free text, so `https://example.com/x` is
                 *     searchable. An invalid operator value (`larger:abc`, `after:yesterdayish`, `is:starred`), unbalanced
                 *     quotes or parentheses, or a dangling `OR` or `-` answer 400 `invalid_query` naming the term and its
                 *     position (1-based characters).
                 *
                 *     The header operators other than `from:`, `to:` and `subject:`, and `has:inline`, read fields that messages
                 *     captured before they existed do not hold until `scripts/reindex` has read those messages again.
                 *
                 *     Each text term (free text, the header operators, and the `from`, `to` and `subject` list
                 *     parameters) is a lookup of its own, so a query may hold at most 16 of them, with at most 512 characters
                 *     over all their needles, and at most 4 of one or two characters (which no index serves). Past any of these
                 *     the answer is 400 `invalid_query` saying which. Tag rules' queries and batch queries keep the same limits.
                 *
                 *     Every search runs off the event loop with a time budget, SANDBOX_QUERY_TIMEOUT_MS (default 2000 ms of
                 *     running time; on the cluster profile Elasticsearch's own `timeout`). A search that overruns it is stopped
                 *     and answers 422 `query_too_expensive`: narrow it (fewer or longer terms, `after:`/`since`, one inbox).
                 *     A workspace runs SANDBOX_QUERY_THREADS minus one (default one) search at a time on each node, on either
                 *     profile, and may have SANDBOX_QUERY_QUEUE_PER_WORKSPACE (default 100) searches waiting for its turn; more
                 *     answer 429 `too_many_queries`. On the cluster profile each node holds both divided by SANDBOX_CLUSTER_NODES.
                 */
                q?: components["parameters"]["SearchQuery"];
            };
            header?: never;
            path: {
                inbox_id: components["parameters"]["ViewInboxId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["RenderedText"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            421: components["responses"]["MisdirectedRequest"];
            422: components["responses"]["AnalysisLimit"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    viewMessageHtml: {
        parameters: {
            query?: {
                /**
                 * @description `1` lets the page load images, stylesheets and fonts from anywhere, as a mail client that shows remote
                 *     content does. `0` (the default) blocks them, so opening a message does not tell its sender: images and
                 *     fonts come only from the message itself (`data:` URIs; its `cid:` images are inlined as such) and styles
                 *     only from the page (no `@import`, no `<link rel=stylesheet>`). Scripts never run either way. On a signed
                 *     link it is not covered by the signature.
                 */
                remote?: components["parameters"]["RemoteContent"];
            };
            header?: never;
            path: {
                inbox_id: components["parameters"]["ViewInboxId"];
                /** @description A message of this inbox (`latest` names the views above). */
                message_id: components["parameters"]["ViewMessageId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["RenderedHtml"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            421: components["responses"]["MisdirectedRequest"];
            422: components["responses"]["AnalysisLimit"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    getMessageHtml: {
        parameters: {
            query?: {
                /**
                 * @description `1` lets the page load images, stylesheets and fonts from anywhere, as a mail client that shows remote
                 *     content does. `0` (the default) blocks them, so opening a message does not tell its sender: images and
                 *     fonts come only from the message itself (`data:` URIs; its `cid:` images are inlined as such) and styles
                 *     only from the page (no `@import`, no `<link rel=stylesheet>`). Scripts never run either way. On a signed
                 *     link it is not covered by the signature.
                 */
                remote?: components["parameters"]["RemoteContent"];
            };
            header?: never;
            path: {
                /** @description Message id */
                id: components["parameters"]["MessageId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["MessageHtml"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            421: components["responses"]["MisdirectedRequest"];
            422: components["responses"]["AnalysisLimit"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    getMessageLinks: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Message id */
                id: components["parameters"]["MessageId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: string[];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            421: components["responses"]["MisdirectedRequest"];
            422: components["responses"]["AnalysisLimit"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    checkMessageLinks: {
        parameters: {
            query?: {
                /** @description Follow redirects (at most 5) and report the final URL and its answer */
                follow?: boolean;
                /** @description Request no link that looks one-time (a reset, a verification, a sign-in, a token); report it skipped */
                skip_one_time?: boolean;
            };
            header?: never;
            path: {
                /** @description Message id */
                id: components["parameters"]["MessageId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One outcome per checked URL, in order of appearance */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** @description Unique http(s) URLs in the message */
                            Found: number;
                            /** @description More than 100 were found; `Links` holds the first 100 */
                            Capped: boolean;
                            /** @description Links answered with 400 or more, refused, not checked, unreachable, unanswered in time, or redirecting without end */
                            Errors: number;
                            Links: {
                                /** @description As written in the message */
                                URL: string;
                                /** @description The HTTP status of the last answer; 0 when none came (refused, not checked, unreachable, no answer within 10 s) */
                                StatusCode: number;
                                /**
                                 * @description The status's reason phrase (`OK`, `Not Found`, `Moved Permanently`); without an answer, why:
                                 *     `refused: <why>` (an address, a name resolving to a non-public address, a port not checked),
                                 *     `not checked: <why>` (the workspace's name lookups were refused for now), `unreachable:
                                 *     <error>` (a name that does not resolve included), `no answer within 10 s`; after too many
                                 *     redirects or a loop, the reason phrase and `; more than 5 redirects` or
                                 *     `; redirect loop: <url> was visited before`
                                 */
                                Status: string;
                                /** @description With follow=true: the last URL requested */
                                FinalURL?: string;
                                /** @description With follow=true: redirects followed */
                                Redirects?: number;
                            }[];
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            421: components["responses"]["MisdirectedRequest"];
            422: components["responses"]["AnalysisLimit"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    getMessageHtmlCheck: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Message id */
                id: components["parameters"]["MessageId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The features found, worst supported first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["HtmlCheck"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description No such message (`not_found`), or the message has no HTML part (`not_found`, and the message says so) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            421: components["responses"]["MisdirectedRequest"];
            422: components["responses"]["AnalysisLimit"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    getAttachment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Message id */
                id: components["parameters"]["MessageId"];
                /** @description Position in the message's attachments array, from 0 */
                index: components["parameters"]["AttachmentIndex"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["AttachmentFile"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            421: components["responses"]["MisdirectedRequest"];
            422: components["responses"]["AnalysisLimit"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    getAttachmentThumb: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Message id */
                id: components["parameters"]["MessageId"];
                /** @description Position in the message's attachments array, from 0 */
                index: components["parameters"]["AttachmentIndex"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["Thumbnail"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            421: components["responses"]["MisdirectedRequest"];
            422: components["responses"]["AnalysisLimit"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    spamCheck: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Message id */
                id: components["parameters"]["MessageId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description spamd's verdict */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["SpamCheck"];
                    };
                };
            };
            /** @description No spam-scoring engine is configured on this server (`not_configured`), or a malformed request (`invalid_request`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            421: components["responses"]["MisdirectedRequest"];
            /** @description The message is larger than the spam check takes, `SANDBOX_SPAMD_MAX_BYTES` (`analysis_limit`) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            429: components["responses"]["RateLimited"];
            /**
             * @description spamd could not be reached, did not answer within `SANDBOX_SPAMD_TIMEOUT_MS`, or answered with an error or
             *     a reply that is not a report (`spam_engine_unavailable`; retry later); or storage failed
             *     (`storage_unavailable`), or the server is shutting down (`shutting_down`)
             */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            "5XX": components["responses"]["ServerError"];
        };
    };
    getMessageAuthCheck: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Message id */
                id: components["parameters"]["MessageId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The verdict, each signature, DMARC, ARC, the Authentication-Results carried and the SPF hint */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["AuthCheck"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            421: components["responses"]["MisdirectedRequest"];
            /**
             * @description The message's header section does not end within its first 1 MiB, or reading it overran the limits per task
             *     (`analysis_limit`)
             */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    markRead: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Message id */
                id: components["parameters"]["MessageId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["ReadState"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            421: components["responses"]["MisdirectedRequest"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    markUnread: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Message id */
                id: components["parameters"]["MessageId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["ReadState"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            421: components["responses"]["MisdirectedRequest"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    batchMessages: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BatchRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["BatchResult"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            421: components["responses"]["MisdirectedRequest"];
            422: components["responses"]["QueryTooExpensive"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    setMessageTags: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Message id */
                id: components["parameters"]["MessageId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    tags: components["schemas"]["TagName"][];
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** @description The tags now on the message, lower case, sorted */
                            tags: string[];
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            421: components["responses"]["MisdirectedRequest"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    addMessageTag: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Message id */
                id: components["parameters"]["MessageId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    tag: components["schemas"]["TagName"];
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** @description The tag as stored (lower case) */
                            tag: string;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            421: components["responses"]["MisdirectedRequest"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    removeMessageTag: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Message id */
                id: components["parameters"]["MessageId"];
                /** @description A tag name, URL-encoded; compared case-insensitively */
                name: components["parameters"]["TagNameParam"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            removed: string;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            421: components["responses"]["MisdirectedRequest"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    listTags: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["Tag"][];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            421: components["responses"]["MisdirectedRequest"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    updateTag: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A tag name, URL-encoded; compared case-insensitively */
                name: components["parameters"]["TagNameParam"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: components["schemas"]["TagName"];
                    /** @description A CSS colour, or empty for the automatic colour */
                    color?: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            old_name: string;
                            name: string;
                            color: string;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            421: components["responses"]["MisdirectedRequest"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    deleteTag: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A tag name, URL-encoded; compared case-insensitively */
                name: components["parameters"]["TagNameParam"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            deleted: string;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            421: components["responses"]["MisdirectedRequest"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    listWebhooks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["Webhook"][];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            421: components["responses"]["MisdirectedRequest"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    createWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uri */
                    url: string;
                    inbox_id?: string | null;
                };
            };
        };
        responses: {
            /** @description The new webhook, with its secret */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["WebhookWithSecret"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["LimitReached"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            421: components["responses"]["MisdirectedRequest"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    deleteWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Webhook id */
                id: components["parameters"]["WebhookId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** @constant */
                            deleted: 1;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            421: components["responses"]["MisdirectedRequest"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Webhook id */
                id: components["parameters"]["WebhookId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["Delivery"][];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            421: components["responses"]["MisdirectedRequest"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    testWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Webhook id */
                id: components["parameters"]["WebhookId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Queued */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            delivery_id: number;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            421: components["responses"]["MisdirectedRequest"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    retryWebhookDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Delivery id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Queued again */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** @description The delivery id */
                            requeued: number;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description The delivery is still pending (`delivery_pending`) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            421: components["responses"]["MisdirectedRequest"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    listTagRules: {
        parameters: {
            query?: {
                /** @description Only the rules scoped to this inbox */
                inbox_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["TagRule"][];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            421: components["responses"]["MisdirectedRequest"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    createTagRule: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TagRuleInput"];
            };
        };
        responses: {
            /** @description The new rule */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["TagRule"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["LimitReached"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            421: components["responses"]["MisdirectedRequest"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    replaceTagRule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Tag rule id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TagRuleInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["TagRule"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            421: components["responses"]["MisdirectedRequest"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    deleteTagRule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Tag rule id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            deleted: string;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            421: components["responses"]["MisdirectedRequest"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    signIn: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email: string;
                    password: string;
                    workspace_id?: string;
                };
            };
        };
        responses: {
            /** @description Signed in; the cookie is set */
            201: {
                headers: {
                    /** @description sbx_session=...; Path=/; HttpOnly; SameSite=Lax (and Secure over https), and sbx_device=...; Path=/v1/session; HttpOnly; SameSite=Strict */
                    "Set-Cookie"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["Me"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            421: components["responses"]["MisdirectedRequest"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    signOut: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Signed out */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** @constant */
                            signed_out: true;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            421: components["responses"]["MisdirectedRequest"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    getMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The person */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["Me"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            421: components["responses"]["MisdirectedRequest"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    switchWorkspace: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    workspace_id: string;
                };
            };
        };
        responses: {
            /** @description The person, now in that workspace */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["Me"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            421: components["responses"]["MisdirectedRequest"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    changePassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    current_password: string;
                    new_password: components["schemas"]["NewPassword"];
                };
            };
        };
        responses: {
            /** @description Changed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** @description Other sessions of the person that ended */
                            ended_sessions: number;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            421: components["responses"]["MisdirectedRequest"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    listSessions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Sessions */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["SessionInfo"][];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            421: components["responses"]["MisdirectedRequest"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    endSession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ended */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            ended: string;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            421: components["responses"]["MisdirectedRequest"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    listMembers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Members */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["Member"][];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            421: components["responses"]["MisdirectedRequest"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    changeMemberRole: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The member's email */
                email: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    role: components["schemas"]["Role"];
                };
            };
        };
        responses: {
            /** @description The member now */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["Member"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            421: components["responses"]["MisdirectedRequest"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    removeMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The member's email */
                email: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            /** @description The email removed */
                            removed: string;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            421: components["responses"]["MisdirectedRequest"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    listInvitations: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Invitations, without their links */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["Invitation"][];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            421: components["responses"]["MisdirectedRequest"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    createInvitation: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email: components["schemas"]["Email"];
                    role: components["schemas"]["Role"];
                };
            };
        };
        responses: {
            /** @description The invitation with its link */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["InvitationWithLink"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["LimitReached"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            421: components["responses"]["MisdirectedRequest"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    revokeInvitation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            revoked: string;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            421: components["responses"]["MisdirectedRequest"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    lookUpInvitation: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LinkToken"];
            };
        };
        responses: {
            /** @description The invitation */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["InvitationPreview"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            421: components["responses"]["MisdirectedRequest"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    acceptInvitation: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    token: components["schemas"]["LinkTokenValue"];
                    password: string;
                };
            };
        };
        responses: {
            /** @description Accepted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            email: string;
                            workspace: components["schemas"]["WorkspaceMembership"];
                            role: components["schemas"]["Role"];
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            402: components["responses"]["LimitReached"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            421: components["responses"]["MisdirectedRequest"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    lookUpPasswordLink: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LinkToken"];
            };
        };
        responses: {
            /** @description The link */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            email: string;
                            /** Format: date-time */
                            expires_at: string;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            421: components["responses"]["MisdirectedRequest"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    setPasswordFromLink: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    token: components["schemas"]["LinkTokenValue"];
                    password: components["schemas"]["NewPassword"];
                };
            };
        };
        responses: {
            /** @description The password is set */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            email: string;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            421: components["responses"]["MisdirectedRequest"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    listApiKeys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Keys (never the keys themselves) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["ApiKey"][];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            421: components["responses"]["MisdirectedRequest"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    createApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    access: "read" | "read_write";
                    name?: components["schemas"]["ApiKeyName"];
                };
            };
        };
        responses: {
            /** @description The key */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["ApiKeyWithSecret"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            421: components["responses"]["MisdirectedRequest"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    revokeApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: {
                            revoked: string;
                        };
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            421: components["responses"]["MisdirectedRequest"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    getPlan: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Plan and usage */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["PlanWithUsage"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            421: components["responses"]["MisdirectedRequest"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    listAuditLog: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Entries; `next_cursor` when older ones exist */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        success: true;
                        data: components["schemas"]["AuditEntry"][];
                        next_cursor?: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            421: components["responses"]["MisdirectedRequest"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    getSignedRaw: {
        parameters: {
            query: {
                /** @description Unix seconds after which the link no longer works */
                expires: components["parameters"]["SignedExpires"];
                signature: components["parameters"]["SignedSignature"];
            };
            header?: never;
            path: {
                workspace_id: components["parameters"]["SignedWorkspaceId"];
                message_id: components["parameters"]["SignedMessageId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["RawMessage"];
            400: components["responses"]["BadRequest"];
            403: components["responses"]["BadSignature"];
            404: components["responses"]["NotFound"];
            421: components["responses"]["MisdirectedRequest"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    getSignedHtml: {
        parameters: {
            query: {
                /** @description Unix seconds after which the link no longer works */
                expires: components["parameters"]["SignedExpires"];
                signature: components["parameters"]["SignedSignature"];
                /**
                 * @description `1` lets the page load images, stylesheets and fonts from anywhere, as a mail client that shows remote
                 *     content does. `0` (the default) blocks them, so opening a message does not tell its sender: images and
                 *     fonts come only from the message itself (`data:` URIs; its `cid:` images are inlined as such) and styles
                 *     only from the page (no `@import`, no `<link rel=stylesheet>`). Scripts never run either way. On a signed
                 *     link it is not covered by the signature.
                 */
                remote?: components["parameters"]["RemoteContent"];
                /**
                 * @description `1` puts the server's preview script first in the page (after a leading doctype); it posts
                 *     `{ "mailFrameHeight": <CSS pixels>, "mailFrameWidth": <CSS pixels> }` (the height that shows the page
                 *     without scrolling, at the width it was measured at) to the embedding window whenever it may have changed
                 *     (as the page loads, as its images load, when the frame is resized). With the script in the page the
                 *     Content-Security-Policy carries `script-src 'nonce-<random per response>'` and `sandbox allow-scripts`
                 *     (see `SignedHtmlContentSecurityPolicy`): only that script runs; the mail's own scripts, event handlers and
                 *     `javascript:` URLs stay blocked, and the page keeps its opaque origin. Not covered by the signature.
                 */
                report_height?: components["parameters"]["ReportHeight"];
                /**
                 * @description The colour scheme to show the page in, whatever the reader's system prefers, through the same preview
                 *     script as `report_height` (browsers do not let a framing page set a frame's `prefers-color-scheme`; it
                 *     follows the reader's system). `dark` shows the page as a mail client in dark mode does: the page's
                 *     `(prefers-color-scheme: dark)` media queries, in its style sheets and `media` attributes, apply and its
                 *     `(prefers-color-scheme: light)` ones do not, and a page that declares dark support (`color-scheme`, in a
                 *     `<meta>` or its CSS) gets a dark canvas. `light` is the other way round, with a light canvas, so a reader
                 *     whose system is dark still sees the light mail. Left out, the page is as it is. Not covered by the
                 *     signature.
                 */
                scheme?: components["parameters"]["PreviewScheme"];
            };
            header?: never;
            path: {
                workspace_id: components["parameters"]["SignedWorkspaceId"];
                message_id: components["parameters"]["SignedMessageId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["SignedMessageHtml"];
            400: components["responses"]["BadRequest"];
            403: components["responses"]["BadSignature"];
            404: components["responses"]["NotFound"];
            421: components["responses"]["MisdirectedRequest"];
            422: components["responses"]["AnalysisLimit"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    getSignedAttachment: {
        parameters: {
            query: {
                /** @description Unix seconds after which the link no longer works */
                expires: components["parameters"]["SignedExpires"];
                signature: components["parameters"]["SignedSignature"];
            };
            header?: never;
            path: {
                workspace_id: components["parameters"]["SignedWorkspaceId"];
                message_id: components["parameters"]["SignedMessageId"];
                /** @description Position in the message's attachments array, from 0 */
                index: components["parameters"]["AttachmentIndex"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["AttachmentFile"];
            400: components["responses"]["BadRequest"];
            403: components["responses"]["BadSignature"];
            404: components["responses"]["NotFound"];
            421: components["responses"]["MisdirectedRequest"];
            422: components["responses"]["AnalysisLimit"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    getSignedThumbnail: {
        parameters: {
            query: {
                /** @description Unix seconds after which the link no longer works */
                expires: components["parameters"]["SignedExpires"];
                signature: components["parameters"]["SignedSignature"];
            };
            header?: never;
            path: {
                workspace_id: components["parameters"]["SignedWorkspaceId"];
                message_id: components["parameters"]["SignedMessageId"];
                /** @description Position in the message's attachments array, from 0 */
                index: components["parameters"]["AttachmentIndex"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["Thumbnail"];
            400: components["responses"]["BadRequest"];
            403: components["responses"]["BadSignature"];
            404: components["responses"]["NotFound"];
            421: components["responses"]["MisdirectedRequest"];
            422: components["responses"]["AnalysisLimit"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    mcpOpenStream: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            405: components["responses"]["McpMethodNotAllowed"];
            421: components["responses"]["MisdirectedRequest"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    mcpRequest: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["McpMessage"] | components["schemas"]["McpMessage"][];
            };
        };
        responses: {
            /** @description The JSON-RPC answer to the request (an array for a batch) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["McpMessage"] | components["schemas"]["McpMessage"][];
                };
            };
            /** @description Notifications or responses only, accepted; no body */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /**
             * @description Malformed request (`invalid_json`, `invalid_request`, in the API's envelope), a batch longer than
             *     SANDBOX_MCP_MAX_BATCH (`mcp_batch_too_large`, in the envelope), or a JSON-RPC message the
             *     protocol refuses (an unsupported `MCP-Protocol-Version`, two `initialize` requests in one batch), as a
             *     JSON-RPC error
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] | components["schemas"]["McpErrorResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description The `Accept` header does not list both `application/json` and `text/event-stream`, as a JSON-RPC error */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["McpErrorResponse"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            /**
             * @description The body is not JSON (`unsupported_media_type`), or is typed as a JSON variant the protocol does not
             *     take (`application/...+json`), as a JSON-RPC error
             */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] | components["schemas"]["McpErrorResponse"];
                };
            };
            421: components["responses"]["MisdirectedRequest"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    mcpEndSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            405: components["responses"]["McpMethodNotAllowed"];
            421: components["responses"]["MisdirectedRequest"];
            429: components["responses"]["RateLimited"];
            "5XX": components["responses"]["ServerError"];
        };
    };
    livez: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Live */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        status: "live";
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            421: components["responses"]["MisdirectedRequest"];
        };
    };
    readyz: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ready */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Readiness"];
                };
            };
            400: components["responses"]["BadRequest"];
            421: components["responses"]["MisdirectedRequest"];
            /** @description Not ready; the components whose `ready` is false say why */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Readiness"];
                };
            };
        };
    };
    getMetrics: {
        parameters: {
            query?: never;
            header?: {
                /** @description `Bearer <SANDBOX_METRICS_TOKEN>`, when that is set */
                Authorization?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The metrics */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The server is bound beyond loopback and SANDBOX_METRICS_TOKEN is not set (`metrics_token_required`) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            404: components["responses"]["NotFound"];
            421: components["responses"]["MisdirectedRequest"];
        };
    };
}
type FlattenedDeepRequired<T> = {
    [K in keyof T]-?: FlattenedDeepRequired<T[K] extends unknown[] | undefined | null ? Extract<T[K], unknown[]>[number] : T[K]>;
};
type ReadonlyArray<T> = [
    Exclude<T, undefined>
] extends [
    unknown[]
] ? Readonly<Exclude<T, undefined>> : Readonly<Exclude<T, undefined>[]>;
export const pathsV1ApiKeysPostRequestBodyContentApplicationJsonAccessValues: ReadonlyArray<FlattenedDeepRequired<paths>["/v1/api-keys"]["post"]["requestBody"]["content"]["application/json"]["access"]> = ["read", "read_write"];
export const errorCodeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["ErrorCode"]> = ["invalid_json", "invalid_request", "invalid_cursor", "invalid_query", "not_an_image", "unauthorized", "limit_reached", "quota_reached", "read_only_key", "signature_invalid", "signature_expired", "not_found", "wait_timeout", "unexpected_message", "already_exists", "webhook_target_forbidden", "delivery_pending", "payload_too_large", "message_too_large", "unsupported_media_type", "rate_limited", "internal_error", "storage_unavailable", "shutting_down", "server_busy", "analysis_limit", "not_configured", "spam_engine_unavailable", "invalid_link", "invalid_credentials", "session_required", "role_required", "csrf_failed", "no_workspace", "account_unproved", "last_owner", "host_not_allowed", "metrics_token_required", "query_too_expensive", "too_many_queries", "too_many_waits", "too_many_streams", "request_timeout", "too_many_connections", "too_many_transactions", "method_not_allowed", "mcp_batch_too_large", "too_many_mcp_calls"];
export const readinessStatusValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["Readiness"]["status"]> = ["ready", "not_ready"];
export const readinessWarningsCodeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["Readiness"]["warnings"]["code"]> = ["plan_not_configured"];
export const roleValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["Role"]> = ["owner", "admin", "member"];
export const invitationStatusValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["Invitation"]["status"]> = ["pending", "accepted", "revoked", "expired"];
export const invitationWithLinkStatusValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["InvitationWithLink"]["status"]> = ["pending"];
export const apiKeyAccessValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["ApiKey"]["access"]> = ["read", "read_write"];
export const apiKeyWithSecretAccessValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["ApiKeyWithSecret"]["access"]> = ["read", "read_write"];
export const auditActionValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["AuditAction"]> = ["session.signed_in", "person.password_changed", "person.password_set", "invitation.created", "invitation.revoked", "invitation.accepted", "invitation.accept_refused", "member.added", "member.role_changed", "member.removed", "member.left", "api_key.created", "api_key.revoked"];
export const workspaceRoleValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["Workspace"]["role"]> = ["owner", "admin", "member"];
export const workspaceAccessValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["Workspace"]["access"]> = ["read", "read_write"];
export const chaosConnectionTriggerCodeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["ChaosConnectionTrigger"]["code"]> = [421, 554];
export const chaosAuthenticationTriggerCodeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["ChaosAuthenticationTrigger"]["code"]> = [421, 454, 534, 535, 538];
export const chaosSenderTriggerCodeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["ChaosSenderTrigger"]["code"]> = [421, 450, 451, 452, 550, 552, 553, 554];
export const chaosRecipientTriggerCodeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["ChaosRecipientTrigger"]["code"]> = [421, 450, 451, 452, 550, 551, 552, 553, 554];
export const chaosDataTriggerCodeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["ChaosDataTrigger"]["code"]> = [421, 450, 451, 452, 550, 552, 554];
export const chaosBehaviourStageValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["ChaosBehaviourStage"]> = ["authentication", "sender", "recipient", "data"];
export const chaosOutcomeResultValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["ChaosOutcome"]["result"]> = ["accepted", "refused", "disconnected"];
export const deliveryEventValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["Delivery"]["event"]> = ["message.received", "webhook.test"];
export const deliveryStatusValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["Delivery"]["status"]> = ["pending", "delivered", "failed"];
export const streamResetReasonValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["StreamReset"]["reason"]> = ["cursor_expired"];
export const linkDetailSourceValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["LinkDetail"]["source"]> = ["html", "text"];
export const oneTimeCodeSourceValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["OneTimeCode"]["source"]> = ["subject", "text", "html"];
export const messageDetailTruncatedValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["MessageDetail"]["truncated"]> = ["text", "html", "headers", "links"];
export const authCheckVerdictResultValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["AuthCheckVerdict"]["Result"]> = ["pass", "fail", "temperror", "none"];
export const authCheckDkimResultValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["AuthCheckDkim"]["Result"]> = ["pass", "fail", "neutral", "policy", "temperror", "permerror", "none"];
export const authCheckSignatureResultValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["AuthCheckSignature"]["Result"]> = ["pass", "fail", "neutral", "policy", "temperror", "permerror"];
export const authCheckDmarcResultValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["AuthCheckDmarc"]["Result"]> = ["pass", "fail", "none", "temperror", "permerror"];
export const authCheckArcResultValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["AuthCheckArc"]["Result"]> = ["pass", "fail", "none", "temperror"];
export const authCheckSpfHintStatusValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["AuthCheckSpfHint"]["Status"]> = ["found", "none", "temperror", "permerror"];
export const batchRequestActionValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["BatchRequest"]["action"]> = ["read", "unread", "delete", "tag", "untag"];
export const htmlCheckWarningCategoryValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["HtmlCheckWarning"]["Category"]> = ["html", "css", "image", "others"];
export const htmlCheckWarningSourceValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["HtmlCheckWarning"]["Source"]> = ["caniemail", "mail-sandbox"];
export const htmlCheckResultSupportValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["HtmlCheckResult"]["Support"]> = ["yes", "no", "partial", "unknown"];
export const componentsParametersRemoteContentValues: ReadonlyArray<FlattenedDeepRequired<components>["parameters"]["RemoteContent"]> = [0, 1];
export const componentsParametersReportHeightValues: ReadonlyArray<FlattenedDeepRequired<components>["parameters"]["ReportHeight"]> = [0, 1];
export const componentsParametersPreviewSchemeValues: ReadonlyArray<FlattenedDeepRequired<components>["parameters"]["PreviewScheme"]> = ["light", "dark"];
export const componentsHeadersHtmlContentSecurityPolicyValues: ReadonlyArray<FlattenedDeepRequired<components>["headers"]["HtmlContentSecurityPolicy"]> = ["default-src 'none'; img-src data: cid:; style-src 'unsafe-inline'; font-src data:; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'self'; sandbox", "default-src 'none'; img-src data: cid: *; style-src 'unsafe-inline' *; font-src data: *; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'self'; sandbox"];
/** Parameters, by operation and location, that request validation fills from their `default` when a request leaves them out. */
export interface defaultedParameters {
    listMessages: {
        query: "limit";
    };
    waitForMessage: {
        query: "timeout";
    };
    waitForMessages: {
        query: "count" | "timeout";
    };
    waitForNoMessage: {
        query: "timeout";
    };
    viewLatestHtml: {
        query: "remote";
    };
    viewMessageHtml: {
        query: "remote";
    };
    getMessageHtml: {
        query: "remote";
    };
    checkMessageLinks: {
        query: "follow" | "skip_one_time";
    };
    listAuditLog: {
        query: "limit";
    };
    getSignedHtml: {
        query: "remote" | "report_height";
    };
}
/** Operations that declare `security: []`: they take no credentials (sign-in, one-time links, signed file links). */
export type publicOperations = "signIn" | "lookUpInvitation" | "acceptInvitation" | "lookUpPasswordLink" | "setPasswordFromLink" | "getSignedRaw" | "getSignedHtml" | "getSignedAttachment" | "getSignedThumbnail" | "livez" | "readyz" | "getMetrics";
/** Operations whose security lists only `sessionCookie`: dashboard-only, never reached with an API key. */
export type sessionOperations = "signOut" | "getMe" | "switchWorkspace" | "changePassword" | "listSessions" | "endSession" | "listMembers" | "changeMemberRole" | "removeMember" | "listInvitations" | "createInvitation" | "revokeInvitation" | "listApiKeys" | "createApiKey" | "revokeApiKey" | "getPlan" | "listAuditLog";
/** Operations marked `x-exchange: true`: their handler writes the response itself (the MCP endpoint). */
export type exchangeOperations = "mcpRequest";
