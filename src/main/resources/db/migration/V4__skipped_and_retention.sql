-- skipped (SPEC §2): a send that a policy decided not to make; terminal, never sent, never redriven.
alter table reminders drop constraint reminders_state_check;
alter table reminders add constraint reminders_state_check
    check (state in ('pending', 'handed_off', 'delivering', 'sent', 'failed', 'cancelled', 'expired', 'skipped'));

-- Retention (SPEC §17) deletes finished reminders oldest change first, in small batches: read from this index only.
create index reminders_finished_updated_at_idx on reminders (updated_at)
    where state in ('sent', 'cancelled', 'expired', 'skipped', 'failed');
