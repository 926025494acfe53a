-- The sweep walks the parked rows of one run in (fire_at, id) order from where its last batch ended, so a row whose
-- publish failed is tried once a run and never keeps the rows behind it waiting.
create index reminders_pending_fire_at_id_idx on reminders (fire_at, id) where state = 'pending';
drop index reminders_pending_fire_at_idx;
