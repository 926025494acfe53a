-- Keyed reminders and tags (docs/api.md, "Keyed reminders and cancel by filter"): a caller's own name for a reminder,
-- and labels to find and cancel its reminders by. Constant defaults add the columns without rewriting the table.
alter table reminders add column key varchar(200);
alter table reminders add column tags varchar(64)[] not null default '{}';

-- A key names one live reminder of its tenant; once that reminder is finished the key is free for the next one. The
-- database decides a race of two registrations of one key: the second insert finds the first (ON CONFLICT).
create unique index reminders_tenant_live_key on reminders (tenant, key)
    where key is not null and state in ('pending', 'handed_off', 'delivering', 'failed');

-- A key's reminders, live and finished, for GET by key (the live one, else the last one finished).
create index reminders_tenant_key_idx on reminders (tenant, key) where key is not null;

-- A keyed reminder is named by its key, not by (user_id, template, fire_at): two keys of one user may fire the same
-- template at the same time, and a key whose reminder was sent may register the same body again.
create unique index reminders_tenant_natural_key on reminders (tenant, user_id, template, fire_at)
    where schedule_id is null and key is null;
drop index reminders_tenant_user_template_fire_at_key;
