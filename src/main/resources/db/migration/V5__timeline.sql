-- The timeline (SPEC §12): every reminder's history, append only, written in the statement that makes the change.
create table reminder_events (
    id          bigint generated always as identity,
    reminder_id bigint      not null,
    at          timestamptz not null,
    type        text        not null,
    detail      jsonb       not null default '{}'::jsonb
);

-- The one index, a reminder's events in the order they were written. No primary key and no foreign key: each
-- would cost every push another index write; the identity is unique by construction, and retention deletes a
-- reminder's events in the statement that deletes the reminder.
create index reminder_events_reminder_id_idx on reminder_events (reminder_id, id);
