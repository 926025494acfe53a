-- How often the reconciler has taken this reminder over without a settling write in between: the poison guard
-- fails a reminder whose delivery never settles instead of sending it again forever.
alter table reminders add column takeovers integer not null default 0;
