/**
 * The Statboard API's types, generated from its OpenAPI document (packages/sdk/openapi.json, as the service serves
 * it at /api/v1/openapi.json) by `npm run generate -w @statboard/sdk`. Do not edit: a test fails when this file
 * is not what the generator writes for the current service.
 */

export type paths = {
    "/api/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The mod's connection test: the service, its database and (with a key) the key */
        get: operations["connectionTest"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/activity": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Accepted and rejected batches, values written, active and new players per hour or day */
        get: operations["getActivity"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** API keys of the workspace, newest first, without secrets */
        get: operations["listApiKeys"];
        put?: never;
        /** Creates a key; the secret (the whole token) is returned only here */
        post: operations["createApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/api-keys/{key}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Replaces name, description, scopes, restrictions and expiry (omitted ones are cleared) */
        put: operations["updateApiKey"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/api-keys/{key}/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Revokes a key at once, on every instance */
        post: operations["revokeApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/api-keys/{key}/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Issues a new key with the same settings and revokes the old one (after grace_seconds, if given) */
        post: operations["rotateApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/audit-log": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Audit records of the workspace, newest first (read-only), narrowed by action, actor and time */
        get: operations["listAuditLog"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/audit-log/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The audit records matching the filters as CSV, newest first (at most 100,000)
         * @description Columns: created_at, action, actor, actor_user_id, target_type, target_id, ip, request_id, before and after (JSON), then summary and target_name (what people read). `X-Truncated: true` when more records matched than the limit.
         */
        get: operations["exportAuditLog"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/ingest/rejections": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Rejected uploads of the last 7 days, grouped by reason, key, server address and player, newest first */
        get: operations["listIngestRejections"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/leaderboards": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Ranked values of one public statistic in a season (the console's view of `GET /leaderboards`) */
        get: operations["adminListLeaderboards"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/leaderboards/rank": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A player's rank in a leaderboard and the entries around it (the console's view of `GET /leaderboards/rank`) */
        get: operations["adminGetLeaderboardRank"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The signed-in user and their workspace role (null before bootstrap or without a role) */
        get: operations["adminMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/me/workspace": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Acts in another of your workspaces from now on (this session, and your next ones); 404 for a workspace you are not a member of */
        put: operations["adminChooseWorkspace"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/online": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Public players with an open session seen in the last two minutes (the console's view of `GET /online`) */
        get: operations["adminGetOnlinePlayers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/players": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Players of the workspace, public or not (at most 500) */
        get: operations["adminListPlayers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/players/{player}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Sets a player's visibility (player: game UUID or id) */
        put: operations["adminUpdatePlayer"];
        post?: never;
        /** Erases a player: values, history, sessions, events and name; `block=true` also discards their later uploads (owner) */
        delete: operations["adminErasePlayer"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/players/{player}/block": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Accepts a blocked player's uploads again (owner) */
        delete: operations["adminUnblockPlayer"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/players/{player}/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A player's statistics in a season (default: the active season) (the console's view of `GET /players/{player}/stats`) */
        get: operations["adminGetPlayerStats"];
        put?: never;
        post?: never;
        /** Removes a player's values of a season (of one statistic, of one server) and their history (admin) */
        delete: operations["adminRemovePlayerStats"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/players/{player}/stats/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * How one of a player's values changed, by hour or by day (UTC) (the console's view of `GET /players/{player}/stats/history`)
         * @description For each bucket in which the value changed, its value at the end of that bucket, oldest first. Default: the last 30 days by day (by hour: the last 7 days); at most 400 buckets. Points older than the service's HISTORY_RETENTION_DAYS are kept one per day.
         */
        get: operations["adminGetPlayerStatHistory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/players/blocked": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Players whose uploads are discarded, the newest block first */
        get: operations["adminListBlockedPlayers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/public-site": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The workspace's public site: on or off, title, description, featured statistics, embedding origins */
        get: operations["getPublicSite"];
        /** Changes the public site settings named in the body (the others keep their value) */
        put: operations["updatePublicSite"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/review": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Review items (one open item per server and player) with their held values and evidence, newest first */
        get: operations["adminListReview"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/review/{id}/approve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Stores the held values that are still the newest (ranks and caches follow at once); 409 when not open */
        post: operations["adminApproveReview"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/review/{id}/reject": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Discards the held values; 409 when not open */
        post: operations["adminRejectReview"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/seasons": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Seasons of the workspace */
        get: operations["adminListSeasons"];
        put?: never;
        /** Creates a season (active: true also activates it) */
        post: operations["createSeason"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/seasons/{season}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Changes a season (by id or slug): the fields given replace its own (a null time clears it); its scoring applies to every read at once */
        put: operations["updateSeason"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/seasons/{season}/activate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Activates a season (by id or slug); the previously active one is deactivated */
        post: operations["activateSeason"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/servers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Registered game servers */
        get: operations["listServers"];
        put?: never;
        /** Registers a server; (hostname, port) is unique per workspace */
        post: operations["createServer"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/servers/{server}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Replaces a server (name, display_name, hostname, port, enabled) */
        put: operations["updateServer"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Statistic definitions, public or not, by key */
        get: operations["adminListStats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/stats/{key}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Changes a statistic's visibility, display name, unit or sort order (omitted fields are kept; a null name or unit goes back to the default) */
        put: operations["adminUpdateStat"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The members of this workspace with their roles (users of other workspaces are never listed) */
        get: operations["listUsers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/users/{user}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Sets a user's role; only owners grant or change owner; the last owner stays (409). Reaches this workspace's members and users without any membership; anyone else is 404, as an unknown user */
        put: operations["updateUserRole"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Webhooks of the workspace, oldest first, with their backlog and latest attempt (no secrets) */
        get: operations["listWebhooks"];
        put?: never;
        /**
         * Creates a webhook; its signing secret is returned only here
         * @description The URL must be http(s); a host that is or resolves to a loopback, private, link-local or reserved address is refused (422) unless the service runs with WEBHOOK_ALLOW_PRIVATE=1.
         */
        post: operations["createWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/webhooks/{webhook}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Replaces url, events, description and enabled (a disabled webhook is sent nothing) */
        put: operations["updateWebhook"];
        post?: never;
        /** Deletes a webhook with its deliveries */
        delete: operations["deleteWebhook"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/webhooks/{webhook}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Deliveries of a webhook, newest first, each with every attempt */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/webhooks/{webhook}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Issues a new signing secret (returned only here); the old one also signs for 24 hours */
        post: operations["rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/webhooks/{webhook}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Queues a webhook.test event for this webhook; its attempts appear in its deliveries */
        post: operations["testWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/health/live": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["healthLiveV1"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/health/ready": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["healthReadyV1"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ingest/batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Upload a batch of absolute statistics and events */
        post: operations["ingestBatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ingest/server": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Upload a game server's own statistics (verified values of the key's one server), and who is online
         * @description For statboard-agent. The key must hold `ingest:server`, which only integration keys restricted to exactly one server can hold; the values are that server's. 404 when the server is disabled or no season is active.
         */
        post: operations["ingestServer"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/leaderboards": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Ranked values of one public statistic in a season */
        get: operations["listLeaderboards"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/leaderboards/rank": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A player's rank in a leaderboard and the entries around it */
        get: operations["getLeaderboardRank"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/online": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Public players with an open session seen in the last two minutes */
        get: operations["getOnlinePlayers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/players": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Public players the key may read */
        get: operations["listPlayers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/players/{player}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One public player (a bare Player) */
        get: operations["getPlayer"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/players/{player}/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A player's statistics in a season (default: the active season) */
        get: operations["getPlayerStats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/players/{player}/stats/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * How one of a player's values changed, by hour or by day (UTC)
         * @description For each bucket in which the value changed, its value at the end of that bucket, oldest first. Default: the last 30 days by day (by hour: the last 7 days); at most 400 buckets. Points older than the service's HISTORY_RETENTION_DAYS are kept one per day.
         */
        get: operations["getPlayerStatHistory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/seasons": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Seasons visible to the key (only its restricted seasons when it has a season restriction) */
        get: operations["listSeasons"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/setup/bootstrap": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Creates the first workspace with a bootstrap token; the caller becomes its owner */
        post: operations["bootstrap"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Public statistics: key, display name, category, sort order and unit, by key */
        get: operations["listStats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The provider's redirect back: verifies the login, starts a session, redirects to return_to */
        get: operations["loginCallback"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Starts an OpenID Connect login (authorization code + PKCE) and redirects to the provider */
        get: operations["login"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Ends the session: 204 for Accept: application/json, else 303 to / */
        post: operations["logout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health/live": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["healthLive"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health/ready": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["healthReady"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
};
export type webhooks = Record<string, never>;
export type components = {
    schemas: {
        AdminMe: {
            display_name: string;
            email: string | null;
            /** Format: uuid */
            id: string;
            needs_bootstrap: boolean;
            /** @description Review items waiting for a decision in that workspace (held values of client uploads); 0 without one */
            open_reviews: number;
            /** @description What the role allows in that workspace (empty without a role): the console's rules */
            permissions: ("read" | "read:users" | "write:players" | "write:config" | "write:users" | "grant:owner" | "remove:values" | "erase:players")[];
            /** @description PUBLIC_URL: the service's address for others, as the mod's config gives it */
            public_url: string;
            /** @description PUBLIC_URL names the machine it is used on: players' clients cannot reach it */
            public_url_loopback: boolean;
            role: ("owner" | "admin" | "analyst" | "readonly") | null;
            /** @description The workspace the session acts in: the one chosen (PUT /admin/me/workspace), else the oldest */
            workspace_id: string | null;
            /** @description Every workspace the user belongs to, with their role there; the oldest membership first */
            workspaces: {
                /** Format: uuid */
                id: string;
                name: string;
                role: "owner" | "admin" | "analyst" | "readonly";
                slug: string;
            }[];
        };
        AdminPlayer: {
            /** Format: date-time */
            first_seen_at: string;
            /** Format: uuid */
            id: string;
            /** Format: date-time */
            last_seen_at: string;
            public: boolean;
            username: string;
            /** Format: uuid */
            uuid: string;
        };
        AdminUser: {
            /** Format: date-time */
            created_at: string;
            display_name: string;
            email: string | null;
            /** Format: uuid */
            id: string;
            last_login_at: string | null;
            role: ("owner" | "admin" | "analyst" | "readonly") | null;
        };
        ApiKey: {
            /** Format: date-time */
            created_at: string;
            description: string | null;
            enabled: boolean;
            expires_at: string | null;
            /** Format: uuid */
            id: string;
            last_used_at: string | null;
            name: string;
            player_restrictions: string[];
            prefix: string;
            revoked_at: string | null;
            scopes: string[];
            season_restrictions: string[];
            server_restrictions: string[];
            status: "active" | "disabled" | "revoked" | "expired";
            type: "client" | "website" | "integration";
            /** Format: date-time */
            updated_at: string;
            /** @description Alias of player_restrictions (the original dashboard) */
            uuid_restrictions: string[];
            /** Format: uuid */
            workspace_id: string;
        };
        AuditRecord: {
            action: string;
            actor: {
                display_name: string | null;
                label: string | null;
                user_id: string | null;
            };
            /** @description The target after the change, without secrets */
            after: unknown;
            /** @description The target before the change, without secrets */
            before: unknown;
            /** Format: date-time */
            created_at: string;
            /** Format: uuid */
            id: string;
            ip: string | null;
            request_id: string | null;
            /** @description What happened in one sentence for people, e.g. 'Created API key Mod uploads' */
            summary: string;
            target_id: string | null;
            target_name: string | null;
            target_type: string;
            workspace_id: string | null;
        };
        CreateApiKeyResponse: {
            data: components["schemas"]["ApiKey"];
            /** @description The whole token. Returned only once. */
            secret: string;
        };
        ErrorResponse: {
            error: {
                code: string;
                details?: {
                    [key: string]: string[];
                };
                message: string;
                request_id: string;
            };
        };
        Pagination: {
            current_page: number;
            per_page: number;
            total: number;
        };
        Player: {
            /** Format: uuid */
            id: string;
            public: boolean;
            username: string;
            /** Format: uuid */
            uuid: string;
        };
        PlayerBlock: {
            /** Format: date-time */
            blocked_at: string;
            /** @description The user who blocked (null: the CLI) */
            blocked_by: string | null;
            /** Format: uuid */
            uuid: string;
        };
        PublicSiteSettings: {
            /** @description One or two sentences shown under the title */
            description: string;
            /** @description Origins (`https://club.example`, `http://127.0.0.1:8080`) whose pages may frame the embeds; empty: any */
            embed_origins: string[];
            /** @description The pages at `/p/<workspace slug>/` answer (off: they are 404) */
            enabled: boolean;
            /** @description Statistic keys whose top 10 the home page shows, in order (a hidden one, or one not uploaded yet, is left out until it is public) */
            featured_stats: string[];
            /** @description The site's name (empty: the workspace's name) */
            title: string;
        };
        PublicStat: {
            /** @description The key's first segment (`minecraft.custom` of `minecraft.custom:…`) */
            category: string;
            /** @description The admin's name for it, else the game's own English name for `minecraft` statistics ("Time Played", "Stone Mined"), else the key */
            display_name: string;
            key: string;
            sort_order: "asc" | "desc";
            /** @description `ticks`: time, 20 per second; `cm`: distance in centimeters; `damage`: tenths of a health point (20 health points are 10 hearts); `count`: a plain number */
            unit: "ticks" | "cm" | "damage" | "count";
        };
        ReviewItem: {
            /** Format: date-time */
            created_at: string;
            /** Format: uuid */
            id: string;
            /** @description The newest held value per statistic */
            items: {
                /** @description The largest value the rule permitted; null for `first_sight` and `rename` */
                allowed: number | null;
                /** Format: date-time */
                observed_at: string;
                /** @description When the value compared with arrived (the service's clock); for `rename`, the last change */
                previous_at: string | null;
                /** @description The value compared with: the last stored one (`rate`), the verified one (`above_verified`), the current username (`rename`); null for `first_sight` */
                previous_value: number | string | null;
                /** Format: date-time */
                received_at: string;
                /** @description `rate`: rose faster than `max_per_hour` allows since the last stored value; `above_verified`: above the server's verified value by more than that; `first_sight`: a player new to the server straight into a top 10 of 20 or more; `rename`: a second change of the username within 30 days */
                rule: "rate" | "above_verified" | "first_sight" | "rename";
                /** @description The statistic's key; null for a username (`rename`) */
                stat: string | null;
                /** @description The held value; the username for `rename` */
                value: number | string;
            }[];
            /** @description The key of the latest upload held here (null: deleted since) */
            key: {
                /** Format: uuid */
                id: string;
                name: string;
            } | null;
            player: {
                username: string;
                /** Format: uuid */
                uuid: string;
            };
            server: {
                /** Format: uuid */
                id: string;
                name: string;
            };
            status: "open" | "approved" | "rejected";
            /** Format: date-time */
            updated_at: string;
            /** @description Uploads that held values here */
            uploads: number;
        };
        Season: {
            active: boolean;
            ended_at: string | null;
            /** Format: uuid */
            id: string;
            name: string;
            /** @description absolute: values as the game reports them (a season on a fresh world); gains: what each player gained since the season began */
            scoring: "absolute" | "gains";
            slug: string;
            started_at: string | null;
        };
        Server: {
            /** Format: date-time */
            created_at: string;
            display_name: string | null;
            enabled: boolean;
            hostname: string;
            /** Format: uuid */
            id: string;
            /** @description When a batch through this server was last accepted (null: never) */
            last_ingest_at: string | null;
            name: string;
            port: number;
            /** Format: date-time */
            updated_at: string;
            /** Format: uuid */
            workspace_id: string;
        };
        StatDefinition: {
            category: string | null;
            /** Format: date-time */
            created_at: string;
            /** @description The admin's name for it, else the game's own English name for `minecraft` statistics ("Time Played", "Stone Mined"), else the key */
            display_name: string;
            /** @description True until an admin names it */
            display_name_is_default: boolean;
            /** Format: uuid */
            id: string;
            key: string;
            /** @description The most a client upload may raise the value in an hour of the service's clock (plus 0.1 h) before it is held for review; null: no limit. Defaults: 20,000,000 for the game's distances, 72,000 for its other statistics, null for other namespaces */
            max_per_hour: number | null;
            public: boolean;
            sort_order: "asc" | "desc";
            /** @description `ticks`: time, 20 per second; `cm`: distance in centimeters; `damage`: tenths of a health point (20 health points are 10 hearts); `count`: a plain number */
            unit: "ticks" | "cm" | "damage" | "count";
            /** @description True until an admin sets it: the unit follows from the key */
            unit_is_default: boolean;
            /** Format: date-time */
            updated_at: string;
        };
        Webhook: {
            /** Format: date-time */
            created_at: string;
            description: string | null;
            /** @description A disabled webhook is sent nothing and collects no new deliveries */
            enabled: boolean;
            events: ("season.activated" | "season.ended" | "api_key.revoked" | "api_key.rotated" | "player.first_seen" | "leaderboard.leader_changed" | "ingest.held" | "webhook.test")[];
            /** Format: uuid */
            id: string;
            /** @description The latest attempt of any delivery (null: none yet) */
            last_delivery: {
                /** Format: date-time */
                at: string;
                error: string | null;
                ok: boolean;
                status_code: number | null;
            } | null;
            /** @description Deliveries not yet answered with a 2xx, still retried */
            pending_deliveries: number;
            /** Format: date-time */
            updated_at: string;
            /** @description Where deliveries are POSTed */
            url: string;
            /** Format: uuid */
            workspace_id: string;
        };
        WebhookDelivery: {
            attempts: {
                attempt: number;
                duration_ms: number;
                /** @description Why there was no 2xx answer (timeout, refused, …) */
                error: string | null;
                /** Format: date-time */
                started_at: string;
                /** @description The receiver's HTTP status (null: none) */
                status_code: number | null;
            }[];
            /** Format: date-time */
            created_at: string;
            delivered_at: string | null;
            /** Format: uuid */
            id: string;
            /** @description The `webhook-id` header: the same on every attempt */
            message_id: string;
            /** @description When a pending delivery is tried next */
            next_attempt_at: string | null;
            /** @description The body sent: {type, timestamp, data} */
            payload: unknown;
            /** @description pending: retried until answered with a 2xx or 24 hours have passed (then failed) */
            status: "pending" | "delivered" | "failed";
            /** @description An event type */
            type: "season.activated" | "season.ended" | "api_key.revoked" | "api_key.rotated" | "player.first_seen" | "leaderboard.leader_changed" | "ingest.held" | "webhook.test";
            /** Format: uuid */
            webhook_id: string;
        };
        WebhookWithSecret: {
            data: components["schemas"]["Webhook"];
            /** @description The signing secret (whsec_ and base64), shown only here: verify `webhook-signature` with it (Standard Webhooks) */
            secret: string;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
};
export type $defs = Record<string, never>;
export interface operations {
    connectionTest: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Healthy */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The key the request carried */
                        key?: {
                            scopes: string[];
                            /** @description client, website or integration */
                            type: string;
                        };
                        /** @enum {string} */
                        status: "ok";
                        /** @description With a key that uploads: why its uploads would be refused although the connection works (absent when nothing stands in the way) */
                        warnings?: {
                            /** @description What would refuse every upload */
                            code: "NO_ACTIVE_SEASON" | "SEASON_NOT_ALLOWED" | "NO_ENABLED_SERVER" | "NO_ALLOWED_SERVER";
                            /** @description A sentence for the player or operator: what is wrong and what to do */
                            message: string;
                        }[];
                    };
                };
            };
            /** @description API key missing, malformed, unknown, disabled, revoked or expired (INVALID_API_KEY) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limited (RATE_LIMITED), with Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "unavailable";
                    };
                };
            };
        };
    };
    getActivity: {
        parameters: {
            query?: {
                /** @description Default: 24 hours before `to` */
                from?: string;
                interval?: "hour" | "day";
                /** @description Default: now */
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @description Players with a session during the bucket */
                            active_players: number;
                            /**
                             * Format: date-time
                             * @description The bucket's start (UTC)
                             */
                            at: string;
                            batches_accepted: number;
                            batches_rejected: number;
                            /** @description Players seen for the first time during the bucket */
                            new_players: number;
                            /** @description Statistic values in accepted batches */
                            values_written: number;
                        }[];
                    };
                };
            };
            /** @description No session (UNAUTHENTICATED), or an invalid API key was sent (INVALID_API_KEY) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description An API key was sent, the Origin is not PUBLIC_URL, or the role does not allow this (FORBIDDEN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed (INVALID_PAYLOAD); `details` maps field paths to messages */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
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
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ApiKey"][];
                    };
                };
            };
            /** @description No session (UNAUTHENTICATED), or an invalid API key was sent (INVALID_API_KEY) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description An API key was sent, the Origin is not PUBLIC_URL, or the role does not allow this (FORBIDDEN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
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
                    description?: string | null;
                    expires_at?: string | null;
                    name: string;
                    player_restrictions?: string[];
                    scopes: string[];
                    season_restrictions?: string[];
                    server_restrictions?: string[];
                    type: "client" | "website" | "integration";
                    /** @description Alias of player_restrictions */
                    uuid_restrictions?: string[];
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreateApiKeyResponse"];
                };
            };
            /** @description Unparseable JSON or a wrong content type (BAD_REQUEST) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No session (UNAUTHENTICATED), or an invalid API key was sent (INVALID_API_KEY) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description An API key was sent, the Origin is not PUBLIC_URL, or the role does not allow this (FORBIDDEN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed (INVALID_PAYLOAD); `details` maps field paths to messages */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    updateApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description API key id */
                key: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    description?: string | null;
                    expires_at?: string | null;
                    name: string;
                    player_restrictions?: string[];
                    scopes: string[];
                    season_restrictions?: string[];
                    server_restrictions?: string[];
                    /** @description Alias of player_restrictions */
                    uuid_restrictions?: string[];
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ApiKey"];
                    };
                };
            };
            /** @description Unparseable JSON or a wrong content type (BAD_REQUEST) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No session (UNAUTHENTICATED), or an invalid API key was sent (INVALID_API_KEY) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description An API key was sent, the Origin is not PUBLIC_URL, or the role does not allow this (FORBIDDEN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (NOT_FOUND) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed (INVALID_PAYLOAD); `details` maps field paths to messages */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    revokeApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description API key id */
                key: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Key revoked */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description No session (UNAUTHENTICATED), or an invalid API key was sent (INVALID_API_KEY) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description An API key was sent, the Origin is not PUBLIC_URL, or the role does not allow this (FORBIDDEN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (NOT_FOUND) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    rotateApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description API key id */
                key: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Keep the old key working this long */
                    grace_seconds?: number;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreateApiKeyResponse"];
                };
            };
            /** @description Unparseable JSON or a wrong content type (BAD_REQUEST) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No session (UNAUTHENTICATED), or an invalid API key was sent (INVALID_API_KEY) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description An API key was sent, the Origin is not PUBLIC_URL, or the role does not allow this (FORBIDDEN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (NOT_FOUND) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict (CONFLICT) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed (INVALID_PAYLOAD); `details` maps field paths to messages */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listAuditLog: {
        parameters: {
            query?: {
                /** @description Only this action, e.g. API_KEY_CREATED */
                action?: string;
                /** @description Only changes by this user (id) or label (e.g. 'cli') */
                actor?: string;
                /** @description Records at or after this time */
                from?: string;
                page?: number;
                per_page?: number;
                /** @description Records before this time */
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["AuditRecord"][];
                        meta: components["schemas"]["Pagination"];
                    };
                };
            };
            /** @description No session (UNAUTHENTICATED), or an invalid API key was sent (INVALID_API_KEY) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description An API key was sent, the Origin is not PUBLIC_URL, or the role does not allow this (FORBIDDEN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed (INVALID_PAYLOAD); `details` maps field paths to messages */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    exportAuditLog: {
        parameters: {
            query?: {
                /** @description Only this action, e.g. API_KEY_CREATED */
                action?: string;
                /** @description Only changes by this user (id) or label (e.g. 'cli') */
                actor?: string;
                /** @description Records at or after this time */
                from?: string;
                /** @description Records before this time */
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description CSV (RFC 4180), UTF-8 */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": string;
                };
            };
            /** @description No session (UNAUTHENTICATED), or an invalid API key was sent (INVALID_API_KEY) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description An API key was sent, the Origin is not PUBLIC_URL, or the role does not allow this (FORBIDDEN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed (INVALID_PAYLOAD); `details` maps field paths to messages */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listIngestRejections: {
        parameters: {
            query?: {
                page?: number;
                per_page?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @description The error code the upload got; PLAYER_BLOCKED for uploads of a blocked player (answered 200 and discarded); OVERFLOW for the one group a key gets a day (UTC) counting its rejections past its first 100 groups (server and player null) */
                            code: string;
                            count: number;
                            /** Format: date-time */
                            first_at: string;
                            key: {
                                /** Format: uuid */
                                id: string;
                                name: string;
                            } | null;
                            /** Format: date-time */
                            last_at: string;
                            /** @description The latest message of that rejection */
                            message: string;
                            player_uuid: string | null;
                            server: {
                                hostname: string;
                                port: number;
                            } | null;
                        }[];
                        meta: components["schemas"]["Pagination"];
                    };
                };
            };
            /** @description No session (UNAUTHENTICATED), or an invalid API key was sent (INVALID_API_KEY) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description An API key was sent, the Origin is not PUBLIC_URL, or the role does not allow this (FORBIDDEN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed (INVALID_PAYLOAD); `details` maps field paths to messages */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    adminListLeaderboards: {
        parameters: {
            query: {
                /** @description Clamped to 1–100 */
                limit?: number;
                /** @description Entries skipped (0–10000); ranks stay ranks of the whole board */
                offset?: number;
                /** @description Season id or slug */
                season: string;
                /** @description A server id: that server's values alone (default: the network totals, the sum over the workspace's servers; for a key restricted to servers, the sum over its servers) */
                server?: string;
                /** @description Public statistic key */
                stat: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        entries: {
                            player: components["schemas"]["Player"];
                            /** @description Competition rank: 1, 2, 2, 4 */
                            rank: number;
                            /** Format: date-time */
                            updated_at: string;
                            value: number;
                        }[];
                        season: components["schemas"]["Season"];
                        stat: string;
                    };
                };
            };
            /** @description No session (UNAUTHENTICATED), or an invalid API key was sent (INVALID_API_KEY) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description An API key was sent, the Origin is not PUBLIC_URL, or the role does not allow this (FORBIDDEN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (NOT_FOUND) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed (INVALID_PAYLOAD); `details` maps field paths to messages */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    adminGetLeaderboardRank: {
        parameters: {
            query: {
                /** @description Entries shown above and below the player */
                around?: number;
                /** @description Game player UUID */
                player: string;
                /** @description Season id or slug */
                season: string;
                /** @description A server id: that server's values alone (default: the network totals, the sum over the workspace's servers; for a key restricted to servers, the sum over its servers) */
                server?: string;
                /** @description Public statistic key */
                stat: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Up to `around` entries above the player, its own, and up to `around` below, in order */
                        entries: {
                            player: components["schemas"]["Player"];
                            /** @description Competition rank: 1, 2, 2, 4 */
                            rank: number;
                            /** Format: date-time */
                            updated_at: string;
                            value: number;
                        }[];
                        entry: {
                            player: components["schemas"]["Player"];
                            /** @description Competition rank: 1, 2, 2, 4 */
                            rank: number;
                            /** Format: date-time */
                            updated_at: string;
                            value: number;
                        };
                        season: components["schemas"]["Season"];
                        stat: string;
                        /** @description Public players with a value */
                        total: number;
                    };
                };
            };
            /** @description No session (UNAUTHENTICATED), or an invalid API key was sent (INVALID_API_KEY) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description An API key was sent, the Origin is not PUBLIC_URL, or the role does not allow this (FORBIDDEN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (NOT_FOUND) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed (INVALID_PAYLOAD); `details` maps field paths to messages */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    adminMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminMe"];
                };
            };
            /** @description No session (UNAUTHENTICATED), or an invalid API key was sent (INVALID_API_KEY) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description An API key was sent, the Origin is not PUBLIC_URL, or the role does not allow this (FORBIDDEN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    adminChooseWorkspace: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uuid */
                    id: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminMe"];
                };
            };
            /** @description Unparseable JSON or a wrong content type (BAD_REQUEST) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No session (UNAUTHENTICATED), or an invalid API key was sent (INVALID_API_KEY) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description An API key was sent, the Origin is not PUBLIC_URL, or the role does not allow this (FORBIDDEN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (NOT_FOUND) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed (INVALID_PAYLOAD); `details` maps field paths to messages */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    adminGetOnlinePlayers: {
        parameters: {
            query?: {
                /** @description Only players whose open session is on this server (its id); outside the key's server restriction 403. Without it, a key with a server restriction lists its servers only */
                server?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** Format: date-time */
                            last_seen_at: string;
                            online: boolean;
                            player: components["schemas"]["Player"];
                            /** @description The server of the player's latest open session */
                            server: {
                                /** Format: uuid */
                                id: string;
                                name: string;
                            };
                        }[];
                    };
                };
            };
            /** @description No session (UNAUTHENTICATED), or an invalid API key was sent (INVALID_API_KEY) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description An API key was sent, the Origin is not PUBLIC_URL, or the role does not allow this (FORBIDDEN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed (INVALID_PAYLOAD); `details` maps field paths to messages */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    adminListPlayers: {
        parameters: {
            query?: {
                /** @description Username substring or exact UUID */
                search?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["AdminPlayer"][];
                    };
                };
            };
            /** @description No session (UNAUTHENTICATED), or an invalid API key was sent (INVALID_API_KEY) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description An API key was sent, the Origin is not PUBLIC_URL, or the role does not allow this (FORBIDDEN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed (INVALID_PAYLOAD); `details` maps field paths to messages */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    adminUpdatePlayer: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                player: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    public: boolean;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["AdminPlayer"];
                    };
                };
            };
            /** @description Unparseable JSON or a wrong content type (BAD_REQUEST) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No session (UNAUTHENTICATED), or an invalid API key was sent (INVALID_API_KEY) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description An API key was sent, the Origin is not PUBLIC_URL, or the role does not allow this (FORBIDDEN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (NOT_FOUND) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed (INVALID_PAYLOAD); `details` maps field paths to messages */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    adminErasePlayer: {
        parameters: {
            query?: {
                /** @description Also discard this UUID's later uploads (until `DELETE …/block`) */
                block?: boolean;
            };
            header?: never;
            path: {
                /** @description Game UUID or id */
                player: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Player erased */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description No session (UNAUTHENTICATED), or an invalid API key was sent (INVALID_API_KEY) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description An API key was sent, the Origin is not PUBLIC_URL, or the role does not allow this (FORBIDDEN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (NOT_FOUND) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed (INVALID_PAYLOAD); `details` maps field paths to messages */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    adminUnblockPlayer: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Game UUID */
                player: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Player unblocked */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description No session (UNAUTHENTICATED), or an invalid API key was sent (INVALID_API_KEY) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description An API key was sent, the Origin is not PUBLIC_URL, or the role does not allow this (FORBIDDEN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (NOT_FOUND) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    adminGetPlayerStats: {
        parameters: {
            query?: {
                /** @description Season id or slug */
                season?: string;
                /** @description A server id: that server's values alone (default: the network totals, the sum over the workspace's servers; for a key restricted to servers, the sum over its servers) */
                server?: string;
            };
            header?: never;
            path: {
                /** @description Game player UUID */
                player: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        player: components["schemas"]["Player"];
                        season: components["schemas"]["Season"];
                        stats: {
                            key: string;
                            /** Format: date-time */
                            updated_at: string;
                            value: number;
                        }[];
                    };
                };
            };
            /** @description No session (UNAUTHENTICATED), or an invalid API key was sent (INVALID_API_KEY) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description An API key was sent, the Origin is not PUBLIC_URL, or the role does not allow this (FORBIDDEN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (NOT_FOUND) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed (INVALID_PAYLOAD); `details` maps field paths to messages */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    adminRemovePlayerStats: {
        parameters: {
            query: {
                /** @description Season id or slug */
                season: string;
                /** @description Only this server's values (a server of the workspace) */
                server?: string;
                /** @description Only this statistic (its key); default: all */
                stat?: string;
            };
            header?: never;
            path: {
                /** @description Game UUID or id */
                player: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @description Values removed */
                            values_removed: number;
                        };
                    };
                };
            };
            /** @description No session (UNAUTHENTICATED), or an invalid API key was sent (INVALID_API_KEY) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description An API key was sent, the Origin is not PUBLIC_URL, or the role does not allow this (FORBIDDEN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (NOT_FOUND) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed (INVALID_PAYLOAD); `details` maps field paths to messages */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    adminGetPlayerStatHistory: {
        parameters: {
            query: {
                /** @description Start (its bucket is included) */
                from?: string;
                interval?: "hour" | "day";
                /** @description Season id or slug (default: the active season) */
                season?: string;
                /** @description A server id: that server's values alone (default: the network totals, the sum over the workspace's servers; for a key restricted to servers, the sum over its servers) */
                server?: string;
                /** @description Public statistic key */
                stat: string;
                /** @description End, exclusive (default: now) */
                to?: string;
            };
            header?: never;
            path: {
                /** @description Game player UUID */
                player: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        interval: "hour" | "day";
                        player: components["schemas"]["Player"];
                        points: {
                            /**
                             * Format: date-time
                             * @description The bucket's start
                             */
                            at: string;
                            /** @description The value at the end of the bucket */
                            value: number;
                        }[];
                        season: components["schemas"]["Season"];
                        stat: string;
                    };
                };
            };
            /** @description No session (UNAUTHENTICATED), or an invalid API key was sent (INVALID_API_KEY) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description An API key was sent, the Origin is not PUBLIC_URL, or the role does not allow this (FORBIDDEN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (NOT_FOUND) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed (INVALID_PAYLOAD); `details` maps field paths to messages */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    adminListBlockedPlayers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["PlayerBlock"][];
                    };
                };
            };
            /** @description No session (UNAUTHENTICATED), or an invalid API key was sent (INVALID_API_KEY) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description An API key was sent, the Origin is not PUBLIC_URL, or the role does not allow this (FORBIDDEN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getPublicSite: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["PublicSiteSettings"];
                    };
                };
            };
            /** @description No session (UNAUTHENTICATED), or an invalid API key was sent (INVALID_API_KEY) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description An API key was sent, the Origin is not PUBLIC_URL, or the role does not allow this (FORBIDDEN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    updatePublicSite: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description One or two sentences shown under the title */
                    description?: string;
                    /** @description Origins (`https://club.example`, `http://127.0.0.1:8080`) whose pages may frame the embeds; empty: any */
                    embed_origins?: string[];
                    /** @description The pages at `/p/<workspace slug>/` answer (off: they are 404) */
                    enabled?: boolean;
                    /** @description Statistic keys whose top 10 the home page shows, in order (a hidden one, or one not uploaded yet, is left out until it is public) */
                    featured_stats?: string[];
                    /** @description The site's name (empty: the workspace's name) */
                    title?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["PublicSiteSettings"];
                    };
                };
            };
            /** @description Unparseable JSON or a wrong content type (BAD_REQUEST) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No session (UNAUTHENTICATED), or an invalid API key was sent (INVALID_API_KEY) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description An API key was sent, the Origin is not PUBLIC_URL, or the role does not allow this (FORBIDDEN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed (INVALID_PAYLOAD); `details` maps field paths to messages */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    adminListReview: {
        parameters: {
            query?: {
                page?: number;
                per_page?: number;
                status?: "open" | "approved" | "rejected";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ReviewItem"][];
                        meta: components["schemas"]["Pagination"];
                    };
                };
            };
            /** @description No session (UNAUTHENTICATED), or an invalid API key was sent (INVALID_API_KEY) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description An API key was sent, the Origin is not PUBLIC_URL, or the role does not allow this (FORBIDDEN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed (INVALID_PAYLOAD); `details` maps field paths to messages */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    adminApproveReview: {
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
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            item: components["schemas"]["ReviewItem"];
                            /** @description Held values stored (approve): those still the newest */
                            stored: number;
                        };
                    };
                };
            };
            /** @description Unparseable JSON or a wrong content type (BAD_REQUEST) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No session (UNAUTHENTICATED), or an invalid API key was sent (INVALID_API_KEY) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description An API key was sent, the Origin is not PUBLIC_URL, or the role does not allow this (FORBIDDEN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (NOT_FOUND) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict (CONFLICT) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    adminRejectReview: {
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
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            item: components["schemas"]["ReviewItem"];
                            /** @description Held values stored (approve): those still the newest */
                            stored: number;
                        };
                    };
                };
            };
            /** @description Unparseable JSON or a wrong content type (BAD_REQUEST) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No session (UNAUTHENTICATED), or an invalid API key was sent (INVALID_API_KEY) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description An API key was sent, the Origin is not PUBLIC_URL, or the role does not allow this (FORBIDDEN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (NOT_FOUND) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict (CONFLICT) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    adminListSeasons: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Season"][];
                    };
                };
            };
            /** @description No session (UNAUTHENTICATED), or an invalid API key was sent (INVALID_API_KEY) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description An API key was sent, the Origin is not PUBLIC_URL, or the role does not allow this (FORBIDDEN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    createSeason: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @default false */
                    active?: boolean;
                    ended_at?: string | null;
                    name: string;
                    /** @description absolute: values as the game reports them (a season on a fresh world); gains: what each player gained since the season began */
                    scoring?: "absolute" | "gains";
                    slug: string;
                    started_at?: string | null;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Season"];
                    };
                };
            };
            /** @description Unparseable JSON or a wrong content type (BAD_REQUEST) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No session (UNAUTHENTICATED), or an invalid API key was sent (INVALID_API_KEY) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description An API key was sent, the Origin is not PUBLIC_URL, or the role does not allow this (FORBIDDEN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict (CONFLICT) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed (INVALID_PAYLOAD); `details` maps field paths to messages */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    updateSeason: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description id or slug */
                season: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    ended_at?: string | null;
                    name?: string;
                    /** @description absolute: values as the game reports them (a season on a fresh world); gains: what each player gained since the season began */
                    scoring?: "absolute" | "gains";
                    slug?: string;
                    started_at?: string | null;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Season"];
                    };
                };
            };
            /** @description Unparseable JSON or a wrong content type (BAD_REQUEST) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No session (UNAUTHENTICATED), or an invalid API key was sent (INVALID_API_KEY) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description An API key was sent, the Origin is not PUBLIC_URL, or the role does not allow this (FORBIDDEN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (NOT_FOUND) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict (CONFLICT) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed (INVALID_PAYLOAD); `details` maps field paths to messages */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    activateSeason: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description id or slug */
                season: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Season"];
                    };
                };
            };
            /** @description No session (UNAUTHENTICATED), or an invalid API key was sent (INVALID_API_KEY) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description An API key was sent, the Origin is not PUBLIC_URL, or the role does not allow this (FORBIDDEN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (NOT_FOUND) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listServers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Server"][];
                    };
                };
            };
            /** @description No session (UNAUTHENTICATED), or an invalid API key was sent (INVALID_API_KEY) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description An API key was sent, the Origin is not PUBLIC_URL, or the role does not allow this (FORBIDDEN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    createServer: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    display_name?: string | null;
                    /** @default true */
                    enabled?: boolean;
                    hostname: string;
                    name?: string;
                    port: number;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Server"];
                    };
                };
            };
            /** @description Unparseable JSON or a wrong content type (BAD_REQUEST) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No session (UNAUTHENTICATED), or an invalid API key was sent (INVALID_API_KEY) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description An API key was sent, the Origin is not PUBLIC_URL, or the role does not allow this (FORBIDDEN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict (CONFLICT) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed (INVALID_PAYLOAD); `details` maps field paths to messages */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    updateServer: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                server: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    display_name?: string | null;
                    /** @default true */
                    enabled?: boolean;
                    hostname: string;
                    name?: string;
                    port: number;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Server"];
                    };
                };
            };
            /** @description Unparseable JSON or a wrong content type (BAD_REQUEST) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No session (UNAUTHENTICATED), or an invalid API key was sent (INVALID_API_KEY) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description An API key was sent, the Origin is not PUBLIC_URL, or the role does not allow this (FORBIDDEN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (NOT_FOUND) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict (CONFLICT) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed (INVALID_PAYLOAD); `details` maps field paths to messages */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    adminListStats: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["StatDefinition"][];
                    };
                };
            };
            /** @description No session (UNAUTHENTICATED), or an invalid API key was sent (INVALID_API_KEY) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description An API key was sent, the Origin is not PUBLIC_URL, or the role does not allow this (FORBIDDEN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    adminUpdateStat: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The statistic's key, or its id */
                key: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    display_name?: string | null;
                    /** @description The most a client upload may raise the value in an hour of the service's clock (plus 0.1 h) before it is held for review; null: no limit. Defaults: 20,000,000 for the game's distances, 72,000 for its other statistics, null for other namespaces */
                    max_per_hour?: number | null;
                    public?: boolean;
                    sort_order?: "asc" | "desc";
                    unit?: ("ticks" | "cm" | "damage" | "count") | null;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["StatDefinition"];
                    };
                };
            };
            /** @description Unparseable JSON or a wrong content type (BAD_REQUEST) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No session (UNAUTHENTICATED), or an invalid API key was sent (INVALID_API_KEY) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description An API key was sent, the Origin is not PUBLIC_URL, or the role does not allow this (FORBIDDEN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (NOT_FOUND) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed (INVALID_PAYLOAD); `details` maps field paths to messages */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listUsers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["AdminUser"][];
                    };
                };
            };
            /** @description No session (UNAUTHENTICATED), or an invalid API key was sent (INVALID_API_KEY) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description An API key was sent, the Origin is not PUBLIC_URL, or the role does not allow this (FORBIDDEN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    updateUserRole: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The user's id, or the email address they signed in with when their identity provider verified it (they must have signed in once; 409 when several users share it: use the id) */
                user: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description null removes the user from the workspace */
                    role: ("owner" | "admin" | "analyst" | "readonly") | null;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["AdminUser"];
                    };
                };
            };
            /** @description Unparseable JSON or a wrong content type (BAD_REQUEST) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No session (UNAUTHENTICATED), or an invalid API key was sent (INVALID_API_KEY) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description An API key was sent, the Origin is not PUBLIC_URL, or the role does not allow this (FORBIDDEN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (NOT_FOUND) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict (CONFLICT) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed (INVALID_PAYLOAD); `details` maps field paths to messages */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
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
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Webhook"][];
                    };
                };
            };
            /** @description No session (UNAUTHENTICATED), or an invalid API key was sent (INVALID_API_KEY) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description An API key was sent, the Origin is not PUBLIC_URL, or the role does not allow this (FORBIDDEN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
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
                    description?: string | null;
                    /** @default true */
                    enabled?: boolean;
                    events: ("season.activated" | "season.ended" | "api_key.revoked" | "api_key.rotated" | "player.first_seen" | "leaderboard.leader_changed" | "ingest.held" | "webhook.test")[];
                    /** @description An http(s) URL */
                    url: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookWithSecret"];
                };
            };
            /** @description Unparseable JSON or a wrong content type (BAD_REQUEST) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No session (UNAUTHENTICATED), or an invalid API key was sent (INVALID_API_KEY) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description An API key was sent, the Origin is not PUBLIC_URL, or the role does not allow this (FORBIDDEN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed (INVALID_PAYLOAD); `details` maps field paths to messages */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    updateWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Webhook id */
                webhook: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    description?: string | null;
                    /** @default true */
                    enabled?: boolean;
                    events: ("season.activated" | "season.ended" | "api_key.revoked" | "api_key.rotated" | "player.first_seen" | "leaderboard.leader_changed" | "ingest.held" | "webhook.test")[];
                    /** @description An http(s) URL */
                    url: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Webhook"];
                    };
                };
            };
            /** @description Unparseable JSON or a wrong content type (BAD_REQUEST) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No session (UNAUTHENTICATED), or an invalid API key was sent (INVALID_API_KEY) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description An API key was sent, the Origin is not PUBLIC_URL, or the role does not allow this (FORBIDDEN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (NOT_FOUND) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed (INVALID_PAYLOAD); `details` maps field paths to messages */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    deleteWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Webhook id */
                webhook: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Webhook deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description No session (UNAUTHENTICATED), or an invalid API key was sent (INVALID_API_KEY) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description An API key was sent, the Origin is not PUBLIC_URL, or the role does not allow this (FORBIDDEN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (NOT_FOUND) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                page?: number;
                per_page?: number;
            };
            header?: never;
            path: {
                /** @description Webhook id */
                webhook: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["WebhookDelivery"][];
                        meta: components["schemas"]["Pagination"];
                    };
                };
            };
            /** @description No session (UNAUTHENTICATED), or an invalid API key was sent (INVALID_API_KEY) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description An API key was sent, the Origin is not PUBLIC_URL, or the role does not allow this (FORBIDDEN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (NOT_FOUND) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed (INVALID_PAYLOAD); `details` maps field paths to messages */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    rotateWebhookSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Webhook id */
                webhook: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookWithSecret"];
                };
            };
            /** @description No session (UNAUTHENTICATED), or an invalid API key was sent (INVALID_API_KEY) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description An API key was sent, the Origin is not PUBLIC_URL, or the role does not allow this (FORBIDDEN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (NOT_FOUND) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    testWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Webhook id */
                webhook: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["WebhookDelivery"];
                    };
                };
            };
            /** @description No session (UNAUTHENTICATED), or an invalid API key was sent (INVALID_API_KEY) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description An API key was sent, the Origin is not PUBLIC_URL, or the role does not allow this (FORBIDDEN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (NOT_FOUND) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict (CONFLICT) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    healthLiveV1: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Healthy */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "ok";
                    };
                };
            };
        };
    };
    healthReadyV1: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Healthy */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "ok";
                    };
                };
            };
            /** @description The database is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "unavailable";
                    };
                };
            };
        };
    };
    ingestBatch: {
        parameters: {
            query?: {
                /** @description true: every check of a real upload, in the same order with the same errors, and nothing written */
                dry_run?: boolean;
            };
            header?: {
                /** @description Client request id, echoed when 1–128 printable ASCII characters without quotes, angle brackets, backslash or backtick; else a new UUID */
                "x-request-id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    client: {
                        fabric_loader_version?: string | null;
                        game_version?: string;
                        loader_version?: string | null;
                        minecraft_version?: string;
                        mod_version: string;
                    };
                    /**
                     * @description At most 100 events a batch
                     * @default []
                     */
                    events?: {
                        /** Format: uuid */
                        id: string;
                        /** Format: date-time */
                        occurred_at: string;
                        /**
                         * @description At most 4 KB (4096 bytes) as JSON in UTF-8, nested at most 32 levels
                         * @default {}
                         */
                        payload?: {
                            [key: string]: unknown;
                        };
                        type: string;
                    }[];
                    /** Format: date-time */
                    observed_at: string;
                    player: {
                        /** @description 1–16 characters of printable text: no control, format, invisible or blank-looking characters, no line or paragraph separators, no space at either end, at most 2 combining marks in a row */
                        username: string;
                        /** Format: uuid */
                        uuid: string;
                    };
                    /** @enum {integer} */
                    protocol_version: 1;
                    /** @description Hint only; the service decides the season. */
                    season?: string | null;
                    server: {
                        hostname: string;
                        port: number;
                    };
                    /** Format: uuid */
                    session_id: string;
                    /** @default [] */
                    stats?: {
                        key: string;
                        value: number;
                    }[];
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        accepted: true;
                        /**
                         * @description Present (true) when nothing was written
                         * @enum {boolean}
                         */
                        dry_run?: true;
                        next_upload_after: number;
                        request_id: string;
                        /** Format: date-time */
                        server_time: string;
                    };
                };
            };
            /** @description Unparseable JSON or a wrong content type (BAD_REQUEST) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description API key missing, malformed, unknown, disabled, revoked or expired (INVALID_API_KEY) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Scope missing (INSUFFICIENT_SCOPE) or outside a key restriction (FORBIDDEN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (NOT_FOUND) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict (CONFLICT) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Body larger than 1 MiB (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed (INVALID_PAYLOAD); `details` maps field paths to messages */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limited (RATE_LIMITED), with Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    ingestServer: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: date-time */
                    observed_at: string;
                    /** @description Sent: the complete list of players on the key's server now. Their presence there starts or continues, everyone else's there ends */
                    online?: string[];
                    /** @description 1–500 players, each once */
                    players: {
                        /** @description At most 500 a player, each key once */
                        stats: {
                            key: string;
                            value: number;
                        }[];
                        /** @description 1–16 characters of printable text: no control, format, invisible or blank-looking characters, no line or paragraph separators, no space at either end, at most 2 combining marks in a row. Absent: the player keeps its name */
                        username?: string;
                        /** Format: uuid */
                        uuid: string;
                    }[];
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        accepted: true;
                        /** @description Players in the request */
                        players: number;
                        request_id: string;
                        /** Format: date-time */
                        server_time: string;
                        /** @description Statistic values in the request */
                        values: number;
                    };
                };
            };
            /** @description Unparseable JSON or a wrong content type (BAD_REQUEST) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description API key missing, malformed, unknown, disabled, revoked or expired (INVALID_API_KEY) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Scope missing (INSUFFICIENT_SCOPE) or outside a key restriction (FORBIDDEN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (NOT_FOUND) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Body larger than 1 MiB (PAYLOAD_TOO_LARGE) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed (INVALID_PAYLOAD); `details` maps field paths to messages */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limited (RATE_LIMITED), with Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listLeaderboards: {
        parameters: {
            query: {
                /** @description Clamped to 1–100 */
                limit?: number;
                /** @description Entries skipped (0–10000); ranks stay ranks of the whole board */
                offset?: number;
                /** @description Season id or slug */
                season: string;
                /** @description A server id: that server's values alone (default: the network totals, the sum over the workspace's servers; for a key restricted to servers, the sum over its servers) */
                server?: string;
                /** @description Public statistic key */
                stat: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        entries: {
                            player: components["schemas"]["Player"];
                            /** @description Competition rank: 1, 2, 2, 4 */
                            rank: number;
                            /** Format: date-time */
                            updated_at: string;
                            value: number;
                        }[];
                        season: components["schemas"]["Season"];
                        stat: string;
                    };
                };
            };
            /** @description API key missing, malformed, unknown, disabled, revoked or expired (INVALID_API_KEY) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Scope missing (INSUFFICIENT_SCOPE) or outside a key restriction (FORBIDDEN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (NOT_FOUND) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed (INVALID_PAYLOAD); `details` maps field paths to messages */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limited (RATE_LIMITED), with Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getLeaderboardRank: {
        parameters: {
            query: {
                /** @description Entries shown above and below the player */
                around?: number;
                /** @description Game player UUID */
                player: string;
                /** @description Season id or slug */
                season: string;
                /** @description A server id: that server's values alone (default: the network totals, the sum over the workspace's servers; for a key restricted to servers, the sum over its servers) */
                server?: string;
                /** @description Public statistic key */
                stat: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Up to `around` entries above the player, its own, and up to `around` below, in order */
                        entries: {
                            player: components["schemas"]["Player"];
                            /** @description Competition rank: 1, 2, 2, 4 */
                            rank: number;
                            /** Format: date-time */
                            updated_at: string;
                            value: number;
                        }[];
                        entry: {
                            player: components["schemas"]["Player"];
                            /** @description Competition rank: 1, 2, 2, 4 */
                            rank: number;
                            /** Format: date-time */
                            updated_at: string;
                            value: number;
                        };
                        season: components["schemas"]["Season"];
                        stat: string;
                        /** @description Public players with a value */
                        total: number;
                    };
                };
            };
            /** @description API key missing, malformed, unknown, disabled, revoked or expired (INVALID_API_KEY) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Scope missing (INSUFFICIENT_SCOPE) or outside a key restriction (FORBIDDEN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (NOT_FOUND) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed (INVALID_PAYLOAD); `details` maps field paths to messages */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limited (RATE_LIMITED), with Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getOnlinePlayers: {
        parameters: {
            query?: {
                /** @description Only players whose open session is on this server (its id); outside the key's server restriction 403. Without it, a key with a server restriction lists its servers only */
                server?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** Format: date-time */
                            last_seen_at: string;
                            online: boolean;
                            player: components["schemas"]["Player"];
                            /** @description The server of the player's latest open session */
                            server: {
                                /** Format: uuid */
                                id: string;
                                name: string;
                            };
                        }[];
                    };
                };
            };
            /** @description API key missing, malformed, unknown, disabled, revoked or expired (INVALID_API_KEY) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Scope missing (INSUFFICIENT_SCOPE) or outside a key restriction (FORBIDDEN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed (INVALID_PAYLOAD); `details` maps field paths to messages */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limited (RATE_LIMITED), with Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listPlayers: {
        parameters: {
            query?: {
                page?: number;
                per_page?: number;
                /** @description Case-insensitive username substring */
                search?: string;
                /** @description Accepted for compatibility; players are not per season */
                season?: string;
                /** @description Case-insensitive exact username (combinable with `search` and pages) */
                username?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Player"][];
                        meta: components["schemas"]["Pagination"];
                    };
                };
            };
            /** @description API key missing, malformed, unknown, disabled, revoked or expired (INVALID_API_KEY) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Scope missing (INSUFFICIENT_SCOPE) or outside a key restriction (FORBIDDEN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed (INVALID_PAYLOAD); `details` maps field paths to messages */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limited (RATE_LIMITED), with Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getPlayer: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Game player UUID */
                player: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Player"];
                };
            };
            /** @description API key missing, malformed, unknown, disabled, revoked or expired (INVALID_API_KEY) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Scope missing (INSUFFICIENT_SCOPE) or outside a key restriction (FORBIDDEN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (NOT_FOUND) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limited (RATE_LIMITED), with Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getPlayerStats: {
        parameters: {
            query?: {
                /** @description Season id or slug */
                season?: string;
                /** @description A server id: that server's values alone (default: the network totals, the sum over the workspace's servers; for a key restricted to servers, the sum over its servers) */
                server?: string;
            };
            header?: never;
            path: {
                /** @description Game player UUID */
                player: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        player: components["schemas"]["Player"];
                        season: components["schemas"]["Season"];
                        stats: {
                            key: string;
                            /** Format: date-time */
                            updated_at: string;
                            value: number;
                        }[];
                    };
                };
            };
            /** @description API key missing, malformed, unknown, disabled, revoked or expired (INVALID_API_KEY) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Scope missing (INSUFFICIENT_SCOPE) or outside a key restriction (FORBIDDEN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (NOT_FOUND) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed (INVALID_PAYLOAD); `details` maps field paths to messages */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limited (RATE_LIMITED), with Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getPlayerStatHistory: {
        parameters: {
            query: {
                /** @description Start (its bucket is included) */
                from?: string;
                interval?: "hour" | "day";
                /** @description Season id or slug (default: the active season) */
                season?: string;
                /** @description A server id: that server's values alone (default: the network totals, the sum over the workspace's servers; for a key restricted to servers, the sum over its servers) */
                server?: string;
                /** @description Public statistic key */
                stat: string;
                /** @description End, exclusive (default: now) */
                to?: string;
            };
            header?: never;
            path: {
                /** @description Game player UUID */
                player: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        interval: "hour" | "day";
                        player: components["schemas"]["Player"];
                        points: {
                            /**
                             * Format: date-time
                             * @description The bucket's start
                             */
                            at: string;
                            /** @description The value at the end of the bucket */
                            value: number;
                        }[];
                        season: components["schemas"]["Season"];
                        stat: string;
                    };
                };
            };
            /** @description API key missing, malformed, unknown, disabled, revoked or expired (INVALID_API_KEY) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Scope missing (INSUFFICIENT_SCOPE) or outside a key restriction (FORBIDDEN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found (NOT_FOUND) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed (INVALID_PAYLOAD); `details` maps field paths to messages */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limited (RATE_LIMITED), with Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listSeasons: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Season"][];
                    };
                };
            };
            /** @description API key missing, malformed, unknown, disabled, revoked or expired (INVALID_API_KEY) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Scope missing (INSUFFICIENT_SCOPE) or outside a key restriction (FORBIDDEN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limited (RATE_LIMITED), with Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    bootstrap: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    token: string;
                    workspace_name?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @enum {string} */
                            role: "owner";
                            /** Format: uuid */
                            workspace_id: string;
                        };
                    };
                };
            };
            /** @description Unparseable JSON or a wrong content type (BAD_REQUEST) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No session (UNAUTHENTICATED), or an invalid API key was sent (INVALID_API_KEY) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description An API key was sent, the Origin is not PUBLIC_URL, or the role does not allow this (FORBIDDEN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Conflict (CONFLICT) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Validation failed (INVALID_PAYLOAD); `details` maps field paths to messages */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listStats: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["PublicStat"][];
                    };
                };
            };
            /** @description API key missing, malformed, unknown, disabled, revoked or expired (INVALID_API_KEY) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Scope missing (INSUFFICIENT_SCOPE) or outside a key restriction (FORBIDDEN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limited (RATE_LIMITED), with Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    loginCallback: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Signed in: redirect to return_to with the session cookie set */
            303: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unparseable JSON or a wrong content type (BAD_REQUEST) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    login: {
        parameters: {
            query?: {
                /** @description Local path to return to after login */
                return_to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Redirect to the identity provider */
            302: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unparseable JSON or a wrong content type (BAD_REQUEST) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limited (RATE_LIMITED), with Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Error */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    logout: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Signed out */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Signed out: redirect to / */
            303: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Scope missing (INSUFFICIENT_SCOPE) or outside a key restriction (FORBIDDEN) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    healthLive: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Healthy */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "ok";
                    };
                };
            };
        };
    };
    healthReady: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Healthy */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "ok";
                    };
                };
            };
            /** @description The database is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "unavailable";
                    };
                };
            };
        };
    };
}
