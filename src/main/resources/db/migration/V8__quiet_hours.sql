-- Quiet hours (docs/quiet-hours.md): one row per user; windows are the API's normalized JSON (days, start, end,
-- channels), read whole by the rule. The claim and the sweep read a reminder's row here by primary key.
create table quiet_hours (
    user_id    varchar(128) primary key,
    tz         varchar(64)  not null,
    windows    jsonb        not null,
    policy     varchar(8)   not null check (policy in ('defer', 'skip')),
    updated_at timestamptz  not null
);

-- An urgent reminder ignores quiet hours.
alter table reminders add column urgent boolean not null default false;

-- When a reminder deferred by quiet hours is due back from the queue; until then the reconciler leaves it alone
-- (its fire_at is past, but it is not overdue).
alter table reminders add column deferred_until timestamptz;
