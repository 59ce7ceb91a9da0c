// Types of the Mailpit-compatible API, generated from mailpit-api.yaml by scripts/generate-api-types.ts (openapi-typescript): do
// not edit; run `npm run generate:api-types` after changing mailpit-api.yaml (the unit tests fail while this file is stale).
export interface paths {
    "/api/v1/info": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The inbox's totals and this server's version */
        get: operations["mailpitInfo"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webui": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The web UI's configuration, as Mailpit's clients read it */
        get: operations["mailpitWebUi"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The inbox's messages, newest first */
        get: operations["mailpitListMessages"];
        /** Marks messages read or unread, by IDs, by Search, or all of the inbox's when neither is given */
        put: operations["mailpitSetReadStatus"];
        post?: never;
        /** Deletes the messages whose IDs are given, or every message of the inbox when none are */
        delete: operations["mailpitDeleteMessages"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The inbox's messages matching a search in Mailpit's language, newest first */
        get: operations["mailpitSearch"];
        put?: never;
        post?: never;
        /** Deletes the inbox's messages matching a search */
        delete: operations["mailpitDeleteSearch"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/message/{ID}": {
        parameters: {
            query?: {
                /** @description With ID `latest`, the newest message matching this search */
                query?: components["parameters"]["LatestQuery"];
                /** @description The IANA time zone that before: and after: dates are read in */
                tz?: components["parameters"]["TimeZone"];
            };
            header?: never;
            path: {
                /** @description The message's id, or `latest` for the inbox's newest (matching `query`, when given) */
                ID: components["parameters"]["MessageId"];
            };
            cookie?: never;
        };
        /** The message, which this marks read */
        get: operations["mailpitGetMessage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/message/{ID}/headers": {
        parameters: {
            query?: {
                /** @description With ID `latest`, the newest message matching this search */
                query?: components["parameters"]["LatestQuery"];
                /** @description The IANA time zone that before: and after: dates are read in */
                tz?: components["parameters"]["TimeZone"];
            };
            header?: never;
            path: {
                /** @description The message's id, or `latest` for the inbox's newest (matching `query`, when given) */
                ID: components["parameters"]["MessageId"];
            };
            cookie?: never;
        };
        /** The message's headers, by canonical name, each with its values in order */
        get: operations["mailpitGetHeaders"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/message/{ID}/raw": {
        parameters: {
            query?: {
                /** @description With ID `latest`, the newest message matching this search */
                query?: components["parameters"]["LatestQuery"];
                /** @description The IANA time zone that before: and after: dates are read in */
                tz?: components["parameters"]["TimeZone"];
                /** @description 1: sent as an attachment named after the message */
                dl?: string;
            };
            header?: never;
            path: {
                /** @description The message's id, or `latest` for the inbox's newest (matching `query`, when given) */
                ID: components["parameters"]["MessageId"];
            };
            cookie?: never;
        };
        /** The message exactly as received */
        get: operations["mailpitGetRaw"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/message/{ID}/part/{PartID}": {
        parameters: {
            query?: {
                /** @description With ID `latest`, the newest message matching this search */
                query?: components["parameters"]["LatestQuery"];
                /** @description The IANA time zone that before: and after: dates are read in */
                tz?: components["parameters"]["TimeZone"];
            };
            header?: never;
            path: {
                /** @description The message's id, or `latest` for the inbox's newest (matching `query`, when given) */
                ID: components["parameters"]["MessageId"];
                /** @description The attachment's position among the message's attachments, from 0 */
                PartID: components["parameters"]["PartId"];
            };
            cookie?: never;
        };
        /** An attachment, under its own type unless a browser could run it */
        get: operations["mailpitGetPart"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/message/{ID}/part/{PartID}/thumb": {
        parameters: {
            query?: {
                /** @description With ID `latest`, the newest message matching this search */
                query?: components["parameters"]["LatestQuery"];
                /** @description The IANA time zone that before: and after: dates are read in */
                tz?: components["parameters"]["TimeZone"];
            };
            header?: never;
            path: {
                /** @description The message's id, or `latest` for the inbox's newest (matching `query`, when given) */
                ID: components["parameters"]["MessageId"];
                /** @description The attachment's position among the message's attachments, from 0 */
                PartID: components["parameters"]["PartId"];
            };
            cookie?: never;
        };
        /** A thumbnail of an image attachment (PNG, at most 240 pixels on either side) */
        get: operations["mailpitGetThumbnail"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/message/{ID}/html-check": {
        parameters: {
            query?: {
                /** @description With ID `latest`, the newest message matching this search */
                query?: components["parameters"]["LatestQuery"];
                /** @description The IANA time zone that before: and after: dates are read in */
                tz?: components["parameters"]["TimeZone"];
            };
            header?: never;
            path: {
                /** @description The message's id, or `latest` for the inbox's newest (matching `query`, when given) */
                ID: components["parameters"]["MessageId"];
            };
            cookie?: never;
        };
        /** How well email clients support the message's HTML and CSS (the /v1 HTML check) */
        get: operations["mailpitHtmlCheck"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/message/{ID}/link-check": {
        parameters: {
            query?: {
                /** @description With ID `latest`, the newest message matching this search */
                query?: components["parameters"]["LatestQuery"];
                /** @description The IANA time zone that before: and after: dates are read in */
                tz?: components["parameters"]["TimeZone"];
                /** @description `true` or `1`: redirects are followed */
                follow?: string;
            };
            header?: never;
            path: {
                /** @description The message's id, or `latest` for the inbox's newest (matching `query`, when given) */
                ID: components["parameters"]["MessageId"];
            };
            cookie?: never;
        };
        /** Requests the message's links and reports each one's answer (the /v1 link check) */
        get: operations["mailpitLinkCheck"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/message/{ID}/sa-check": {
        parameters: {
            query?: {
                /** @description With ID `latest`, the newest message matching this search */
                query?: components["parameters"]["LatestQuery"];
                /** @description The IANA time zone that before: and after: dates are read in */
                tz?: components["parameters"]["TimeZone"];
            };
            header?: never;
            path: {
                /** @description The message's id, or `latest` for the inbox's newest (matching `query`, when given) */
                ID: components["parameters"]["MessageId"];
            };
            cookie?: never;
        };
        /** SpamAssassin's verdict on the message, when spamd is configured (404 otherwise, as Mailpit without it) */
        get: operations["mailpitSpamCheck"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/message/{ID}/release": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The message's id, or `latest` for the inbox's newest (matching `query`, when given) */
                ID: components["parameters"]["MessageId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Refused, always (400); this service never sends mail onward */
        post: operations["mailpitRelease"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/send": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Composes a message and captures it in the inbox, as if it had arrived over SMTP */
        post: operations["mailpitSend"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tags": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The tags on the inbox's messages, sorted */
        get: operations["mailpitListTags"];
        /** Replaces the tags of the messages whose IDs are given (no Tags, or none, removes them all) */
        put: operations["mailpitSetTags"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tags/{Tag}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                Tag: string;
            };
            cookie?: never;
        };
        get?: never;
        /** Renames a tag on the inbox's messages (merging into a tag of the new name) */
        put: operations["mailpitRenameTag"];
        post?: never;
        /** Removes a tag from the inbox's messages; the messages stay */
        delete: operations["mailpitDeleteTag"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/chaos": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This inbox's chaos triggers in Mailpit's terms */
        get: operations["mailpitGetChaos"];
        /**
         * Sets this inbox's authentication, sender and recipient triggers; one left out is reset to 0
         * @description The inbox's other chaos settings (connection, data, disconnect, delay; see openapi.yaml) are kept. The inbox's
         *     chaos is enabled when any trigger has a probability above 0, and disabled otherwise.
         */
        put: operations["mailpitSetChaos"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/view/{ID}.html": {
        parameters: {
            query?: {
                /** @description With ID `latest`, the newest message matching this search */
                query?: components["parameters"]["LatestQuery"];
                /** @description The IANA time zone that before: and after: dates are read in */
                tz?: components["parameters"]["TimeZone"];
                /** @description Accepted for Mailpit's clients; the page is the same */
                embed?: string;
            };
            header?: never;
            path: {
                /** @description The message's id, or `latest` for the inbox's newest (matching `query`, when given) */
                ID: components["parameters"]["MessageId"];
            };
            cookie?: never;
        };
        /** The message's HTML body as a page (404 when it has none); viewing does not mark it read */
        get: operations["mailpitViewHtml"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/view/{ID}.txt": {
        parameters: {
            query?: {
                /** @description With ID `latest`, the newest message matching this search */
                query?: components["parameters"]["LatestQuery"];
                /** @description The IANA time zone that before: and after: dates are read in */
                tz?: components["parameters"]["TimeZone"];
            };
            header?: never;
            path: {
                /** @description The message's id, or `latest` for the inbox's newest (matching `query`, when given) */
                ID: components["parameters"]["MessageId"];
            };
            cookie?: never;
        };
        /** The message's text (its text part, or text made from its HTML); viewing does not mark it read */
        get: operations["mailpitViewText"];
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
        /** @description One frame of the `/api/events` WebSocket (see Events above) */
        Event: components["schemas"]["NewEvent"] | components["schemas"]["UpdateEvent"] | components["schemas"]["DeleteEvent"] | components["schemas"]["ClearedEvent"] | components["schemas"]["StatsEvent"];
        NewEvent: {
            /** @constant */
            Type: "new";
            Data: components["schemas"]["MessageSummary"];
        };
        UpdateEvent: {
            /** @constant */
            Type: "update";
            Data: {
                ID: string;
                Read: boolean;
            } | {
                ID: string;
                Tags: string[];
            };
        };
        DeleteEvent: {
            /** @constant */
            Type: "delete";
            Data: {
                ID: string;
            };
        };
        /** @description `truncate`: the inbox was emptied; `prune`: retention removed messages */
        ClearedEvent: {
            /** @enum {unknown} */
            Type: "truncate" | "prune";
            Data: null;
        };
        StatsEvent: {
            /** @constant */
            Type: "stats";
            Data: {
                Total: number;
                Unread: number;
                Version: string;
            };
        };
        MessageIds: string[] | null;
        SearchQuery: string;
        Address: {
            Name: string;
            Address: string;
        };
        Attachment: {
            PartID: string;
            FileName: string;
            ContentType: string;
            ContentID: string;
            Size: number;
            Checksums: Record<string, never>;
        };
        MessageSummary: {
            ID: string;
            MessageID: string;
            Read: boolean;
            From: components["schemas"]["Address"];
            To: components["schemas"]["Address"][];
            Cc: components["schemas"]["Address"][];
            Bcc: components["schemas"]["Address"][];
            ReplyTo: components["schemas"]["Address"][];
            Subject: string;
            /** Format: date-time */
            Created: string;
            Username: string;
            Tags: string[];
            Size: number;
            Attachments: number;
            Snippet: string;
        };
        MessagesSummary: {
            /** @description Messages in the inbox */
            total: number;
            /** @description Unread messages in the inbox */
            unread: number;
            /** @description Messages on this page (Mailpit keeps it undocumented, for old clients) */
            count: number;
            /** @description Messages the search matches (the inbox's total without one) */
            messages_count: number;
            /** @description Unread messages the search matches */
            messages_unread: number;
            start: number;
            /** @description The tags on the inbox's messages */
            tags: string[];
            messages: components["schemas"]["MessageSummary"][];
        };
        ListUnsubscribe: {
            Header: string;
            Links: string[];
            Errors: string;
            HeaderPost: string;
        };
        Message: {
            ID: string;
            MessageID: string;
            From: components["schemas"]["Address"];
            To: components["schemas"]["Address"][];
            Cc: components["schemas"]["Address"][];
            Bcc: components["schemas"]["Address"][];
            ReplyTo: components["schemas"]["Address"][];
            /** @description The SMTP MAIL FROM */
            ReturnPath: string;
            Subject: string;
            ListUnsubscribe: components["schemas"]["ListUnsubscribe"];
            /**
             * Format: date-time
             * @description The Date header, or when it was received when it has none (or an unreadable one)
             */
            Date: string;
            Tags: string[];
            Username: string;
            Text: string;
            HTML: string;
            Size: number;
            Inline: components["schemas"]["Attachment"][];
            Attachments: components["schemas"]["Attachment"][];
        };
        AppInformation: {
            Version: string;
            LatestVersion: string;
            /** @description The inbox's name */
            Database: string;
            /** @description Bytes of the inbox's messages */
            DatabaseSize: number;
            Messages: number;
            Unread: number;
            /** @description Messages of the inbox carrying each tag */
            Tags: {
                [key: string]: number;
            };
            RuntimeStats: {
                /** @description Seconds since this server started */
                Uptime: number;
            };
        };
        WebUIConfiguration: {
            /** @description The inbox's name */
            Label: string;
            MessageRelay: {
                /** @constant */
                Enabled: false;
                SMTPServer: string;
                ReturnPath: string;
                AllowedRecipients: string;
                /** @description AllowedRecipients under its older name, which Mailpit still answers */
                RecipientAllowlist: string;
                BlockedRecipients: string;
                OverrideFrom: string;
                PreserveMessageIDs: boolean;
            };
            SpamAssassin: boolean;
            /** @constant */
            Rspamd: false;
            /** @constant */
            ChaosEnabled: true;
            DuplicatesIgnored: boolean;
            HideDeleteAllButton: boolean;
        };
        /** @description The /v1 HTML check's report (openapi.yaml's HtmlCheck) in Mailpit's fields only */
        HTMLCheckResponse: {
            Warnings: {
                Slug: string;
                Title: string;
                Description: string;
                /** @description The feature's caniemail.com page; empty for this service's own rules */
                URL: string;
                Category: string;
                Tags: string[];
                /**
                 * @description Always empty, as Mailpit leaves it
                 * @constant
                 */
                Keywords: "";
                Results: {
                    Name: string;
                    Family: string;
                    Platform: string;
                    Version: string;
                    Support: string;
                    /** @description The first key of NotesByNumber that qualifies this result; empty when none does */
                    NoteNumber: string;
                }[];
                NotesByNumber: {
                    [key: string]: string;
                };
                Score: {
                    Found: number;
                    Supported: number;
                    Partial: number;
                    Unsupported: number;
                };
            }[];
            Platforms: {
                [key: string]: string[];
            };
            Total: {
                Nodes: number;
                Tests: number;
                Supported: number;
                Partial: number;
                Unsupported: number;
            };
        };
        /** @description The /v1 link check's report (openapi.yaml's LinkCheck) in Mailpit's fields only */
        LinkCheckResponse: {
            Errors: number;
            Links: {
                URL: string;
                StatusCode: number;
                Status: string;
            }[];
        };
        SpamAssassinResponse: {
            /** @description Why there is no verdict (spamd could not be asked); empty when there is one */
            Error: string;
            IsSpam: boolean;
            Score: number;
            Rules: {
                Name: string;
                Score: number;
                Description: string;
            }[];
        };
        ChaosTrigger: {
            ErrorCode: number;
            Probability: number;
        };
        ChaosTriggerInput: {
            ErrorCode: number;
            Probability: number;
        };
        ChaosTriggers: {
            Authentication: components["schemas"]["ChaosTrigger"];
            Sender: components["schemas"]["ChaosTrigger"];
            Recipient: components["schemas"]["ChaosTrigger"];
        };
        SendAddress: {
            Email: string;
            Name?: string;
        };
        SendRequest: {
            From: components["schemas"]["SendAddress"];
            To?: components["schemas"]["SendAddress"][] | null;
            Cc?: components["schemas"]["SendAddress"][] | null;
            Bcc?: string[] | null;
            ReplyTo?: components["schemas"]["SendAddress"][] | null;
            Subject?: string;
            Text?: string;
            HTML?: string;
            Headers?: {
                [key: string]: string;
            } | null;
            Tags?: string[] | null;
            Attachments?: {
                /** @description The file, base64 */
                Content: string;
                Filename: string;
                ContentType?: string;
                ContentID?: string;
            }[] | null;
        };
    };
    responses: {
        /** @description Plain text "ok" */
        Ok: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "text/plain": "ok";
            };
        };
        /** @description What was wrong, in plain text; the status says what kind of error it is (see the introduction) */
        PlainError: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "text/plain": string;
            };
        };
    };
    parameters: {
        /** @description The message's id, or `latest` for the inbox's newest (matching `query`, when given) */
        MessageId: string;
        /** @description The attachment's position among the message's attachments, from 0 */
        PartId: string;
        /** @description With ID `latest`, the newest message matching this search */
        LatestQuery: string;
        /** @description A search in Mailpit's language; required and not blank */
        Query: string;
        /** @description Messages skipped, newest first (0 when left out or not a number) */
        Start: string;
        /** @description Page size (50 when left out or not a number) */
        Limit: string;
        /** @description The IANA time zone that before: and after: dates are read in */
        TimeZone: string;
    };
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    mailpitInfo: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Application information */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AppInformation"];
                };
            };
            default: components["responses"]["PlainError"];
        };
    };
    mailpitWebUi: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Web UI configuration */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebUIConfiguration"];
                };
            };
            default: components["responses"]["PlainError"];
        };
    };
    mailpitListMessages: {
        parameters: {
            query?: {
                /** @description Messages skipped, newest first (0 when left out or not a number) */
                start?: components["parameters"]["Start"];
                /** @description Page size (50 when left out or not a number) */
                limit?: components["parameters"]["Limit"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of message summaries; messages_count is the inbox's total here */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MessagesSummary"];
                };
            };
            default: components["responses"]["PlainError"];
        };
    };
    mailpitSetReadStatus: {
        parameters: {
            query?: {
                /** @description The IANA time zone that before: and after: dates are read in */
                tz?: components["parameters"]["TimeZone"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /**
                     * @description The read state to set
                     * @default false
                     */
                    Read?: boolean;
                    IDs?: components["schemas"]["MessageIds"];
                    Search?: components["schemas"]["SearchQuery"];
                };
            };
        };
        responses: {
            200: components["responses"]["Ok"];
            default: components["responses"]["PlainError"];
        };
    };
    mailpitDeleteMessages: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    IDs?: components["schemas"]["MessageIds"];
                };
            };
        };
        responses: {
            200: components["responses"]["Ok"];
            default: components["responses"]["PlainError"];
        };
    };
    mailpitSearch: {
        parameters: {
            query?: {
                /** @description A search in Mailpit's language; required and not blank */
                query?: components["parameters"]["Query"];
                /** @description Messages skipped, newest first (0 when left out or not a number) */
                start?: components["parameters"]["Start"];
                /** @description Page size (50 when left out or not a number) */
                limit?: components["parameters"]["Limit"];
                /** @description The IANA time zone that before: and after: dates are read in */
                tz?: components["parameters"]["TimeZone"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the matches; messages_count and messages_unread count the matches, total and unread the inbox */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MessagesSummary"];
                };
            };
            default: components["responses"]["PlainError"];
        };
    };
    mailpitDeleteSearch: {
        parameters: {
            query?: {
                /** @description A search in Mailpit's language; required and not blank */
                query?: components["parameters"]["Query"];
                /** @description The IANA time zone that before: and after: dates are read in */
                tz?: components["parameters"]["TimeZone"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["Ok"];
            default: components["responses"]["PlainError"];
        };
    };
    mailpitGetMessage: {
        parameters: {
            query?: {
                /** @description With ID `latest`, the newest message matching this search */
                query?: components["parameters"]["LatestQuery"];
                /** @description The IANA time zone that before: and after: dates are read in */
                tz?: components["parameters"]["TimeZone"];
            };
            header?: never;
            path: {
                /** @description The message's id, or `latest` for the inbox's newest (matching `query`, when given) */
                ID: components["parameters"]["MessageId"];
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
                    "application/json": components["schemas"]["Message"];
                };
            };
            default: components["responses"]["PlainError"];
        };
    };
    mailpitGetHeaders: {
        parameters: {
            query?: {
                /** @description With ID `latest`, the newest message matching this search */
                query?: components["parameters"]["LatestQuery"];
                /** @description The IANA time zone that before: and after: dates are read in */
                tz?: components["parameters"]["TimeZone"];
            };
            header?: never;
            path: {
                /** @description The message's id, or `latest` for the inbox's newest (matching `query`, when given) */
                ID: components["parameters"]["MessageId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Message headers */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: string[];
                    };
                };
            };
            default: components["responses"]["PlainError"];
        };
    };
    mailpitGetRaw: {
        parameters: {
            query?: {
                /** @description With ID `latest`, the newest message matching this search */
                query?: components["parameters"]["LatestQuery"];
                /** @description The IANA time zone that before: and after: dates are read in */
                tz?: components["parameters"]["TimeZone"];
                /** @description 1: sent as an attachment named after the message */
                dl?: string;
            };
            header?: never;
            path: {
                /** @description The message's id, or `latest` for the inbox's newest (matching `query`, when given) */
                ID: components["parameters"]["MessageId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The raw message */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            default: components["responses"]["PlainError"];
        };
    };
    mailpitGetPart: {
        parameters: {
            query?: {
                /** @description With ID `latest`, the newest message matching this search */
                query?: components["parameters"]["LatestQuery"];
                /** @description The IANA time zone that before: and after: dates are read in */
                tz?: components["parameters"]["TimeZone"];
            };
            header?: never;
            path: {
                /** @description The message's id, or `latest` for the inbox's newest (matching `query`, when given) */
                ID: components["parameters"]["MessageId"];
                /** @description The attachment's position among the message's attachments, from 0 */
                PartID: components["parameters"]["PartId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The attachment's bytes */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": string;
                };
            };
            default: components["responses"]["PlainError"];
        };
    };
    mailpitGetThumbnail: {
        parameters: {
            query?: {
                /** @description With ID `latest`, the newest message matching this search */
                query?: components["parameters"]["LatestQuery"];
                /** @description The IANA time zone that before: and after: dates are read in */
                tz?: components["parameters"]["TimeZone"];
            };
            header?: never;
            path: {
                /** @description The message's id, or `latest` for the inbox's newest (matching `query`, when given) */
                ID: components["parameters"]["MessageId"];
                /** @description The attachment's position among the message's attachments, from 0 */
                PartID: components["parameters"]["PartId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The thumbnail */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "image/png": string;
                };
            };
            default: components["responses"]["PlainError"];
        };
    };
    mailpitHtmlCheck: {
        parameters: {
            query?: {
                /** @description With ID `latest`, the newest message matching this search */
                query?: components["parameters"]["LatestQuery"];
                /** @description The IANA time zone that before: and after: dates are read in */
                tz?: components["parameters"]["TimeZone"];
            };
            header?: never;
            path: {
                /** @description The message's id, or `latest` for the inbox's newest (matching `query`, when given) */
                ID: components["parameters"]["MessageId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The HTML check's report, as /v1's `GET /v1/messages/{id}/html-check` gives it, in Mailpit's fields (a message without HTML answers 400, as in Mailpit) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTMLCheckResponse"];
                };
            };
            default: components["responses"]["PlainError"];
        };
    };
    mailpitLinkCheck: {
        parameters: {
            query?: {
                /** @description With ID `latest`, the newest message matching this search */
                query?: components["parameters"]["LatestQuery"];
                /** @description The IANA time zone that before: and after: dates are read in */
                tz?: components["parameters"]["TimeZone"];
                /** @description `true` or `1`: redirects are followed */
                follow?: string;
            };
            header?: never;
            path: {
                /** @description The message's id, or `latest` for the inbox's newest (matching `query`, when given) */
                ID: components["parameters"]["MessageId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The link check's report */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LinkCheckResponse"];
                };
            };
            default: components["responses"]["PlainError"];
        };
    };
    mailpitSpamCheck: {
        parameters: {
            query?: {
                /** @description With ID `latest`, the newest message matching this search */
                query?: components["parameters"]["LatestQuery"];
                /** @description The IANA time zone that before: and after: dates are read in */
                tz?: components["parameters"]["TimeZone"];
            };
            header?: never;
            path: {
                /** @description The message's id, or `latest` for the inbox's newest (matching `query`, when given) */
                ID: components["parameters"]["MessageId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The verdict; Error says why there is none when spamd could not be asked */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SpamAssassinResponse"];
                };
            };
            default: components["responses"]["PlainError"];
        };
    };
    mailpitRelease: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The message's id, or `latest` for the inbox's newest (matching `query`, when given) */
                ID: components["parameters"]["MessageId"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            default: components["responses"]["PlainError"];
        };
    };
    mailpitSend: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SendRequest"];
            };
        };
        responses: {
            /** @description The stored message's ID */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        ID: string;
                    };
                };
            };
            /** @description Why nothing was stored, as JSON (as Mailpit answers its send errors) */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        Error: string;
                    };
                };
            };
        };
    };
    mailpitListTags: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Tag names */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": string[];
                };
            };
            default: components["responses"]["PlainError"];
        };
    };
    mailpitSetTags: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    IDs?: components["schemas"]["MessageIds"];
                    Tags?: string[] | null;
                };
            };
        };
        responses: {
            200: components["responses"]["Ok"];
            default: components["responses"]["PlainError"];
        };
    };
    mailpitRenameTag: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                Tag: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    Name: string;
                };
            };
        };
        responses: {
            200: components["responses"]["Ok"];
            default: components["responses"]["PlainError"];
        };
    };
    mailpitDeleteTag: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                Tag: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["Ok"];
            default: components["responses"]["PlainError"];
        };
    };
    mailpitGetChaos: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The triggers in force (all 0 while the inbox's chaos is disabled) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChaosTriggers"];
                };
            };
            default: components["responses"]["PlainError"];
        };
    };
    mailpitSetChaos: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    Authentication?: components["schemas"]["ChaosTriggerInput"];
                    Sender?: components["schemas"]["ChaosTriggerInput"];
                    Recipient?: components["schemas"]["ChaosTriggerInput"];
                };
            };
        };
        responses: {
            /** @description The triggers now in force */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChaosTriggers"];
                };
            };
            default: components["responses"]["PlainError"];
        };
    };
    mailpitViewHtml: {
        parameters: {
            query?: {
                /** @description With ID `latest`, the newest message matching this search */
                query?: components["parameters"]["LatestQuery"];
                /** @description The IANA time zone that before: and after: dates are read in */
                tz?: components["parameters"]["TimeZone"];
                /** @description Accepted for Mailpit's clients; the page is the same */
                embed?: string;
            };
            header?: never;
            path: {
                /** @description The message's id, or `latest` for the inbox's newest (matching `query`, when given) */
                ID: components["parameters"]["MessageId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The HTML, under a sandboxing Content-Security-Policy */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            default: components["responses"]["PlainError"];
        };
    };
    mailpitViewText: {
        parameters: {
            query?: {
                /** @description With ID `latest`, the newest message matching this search */
                query?: components["parameters"]["LatestQuery"];
                /** @description The IANA time zone that before: and after: dates are read in */
                tz?: components["parameters"]["TimeZone"];
            };
            header?: never;
            path: {
                /** @description The message's id, or `latest` for the inbox's newest (matching `query`, when given) */
                ID: components["parameters"]["MessageId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The text */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            default: components["responses"]["PlainError"];
        };
    };
}
