-- Delivery callbacks (docs/api.md, "Delivery callbacks"): the outbox. A reminder of a tenant with a callback URL that
-- ends sent, failed, expired or skipped gets one row here, written by the statement that ends it, with the reminder
-- as that statement left it. Dispatchers claim due rows, POST them, and record each try on the row.
create table callback_events (
    id              bigint generated always as identity primary key,
    tenant          varchar(64) not null,
    reminder_id     bigint      not null,
    type            text        not null,
    created_at      timestamptz not null,
    reminder        jsonb       not null,
    -- tries since it was written or last redelivered; the pause before the next one doubles with each
    attempts        int         not null default 0,
    -- when the next try is due; while a dispatcher holds the row, when its hold ends; null once delivered
    next_attempt_at timestamptz,
    delivered_at    timestamptz,
    -- the last try's HTTP status (null: a timeout or a connection error, said by last_error)
    last_status     int,
    last_error      text,
    -- when it was written or last redelivered: it is tried, and kept, for tickler.callbacks.retention from then
    tried_since     timestamptz not null
);

-- What dispatchers claim, a tenant at a time: its undelivered rows by when they are due (small: delivered rows leave
-- it; and another tenant's backlog is never walked).
create index callback_events_due_idx on callback_events (tenant, next_attempt_at) where delivered_at is null;
-- A tenant's oldest undelivered event, for the gauge of its age.
create index callback_events_undelivered_idx on callback_events (tenant, tried_since) where delivered_at is null;
-- A tenant's events in id order, for GET /v1/callbacks and the redelivery after a cursor.
create index callback_events_tenant_id_idx on callback_events (tenant, id);
-- Retention deletes rows whose time is up, oldest first.
create index callback_events_tried_since_idx on callback_events (tried_since);
