-- The reconciler's two questions, each answered from a small partial index:
-- handed-off reminders overdue and not back, and claims whose lease ran out.
create index reminders_handed_off_fire_at_idx on reminders (fire_at) where state = 'handed_off';
create index reminders_delivering_lease_idx on reminders (lease_until) where state = 'delivering';

-- Reminders that may expire before they are sent.
create index reminders_waiting_expires_at_idx on reminders (expires_at)
    where expires_at is not null and state in ('pending', 'handed_off');
