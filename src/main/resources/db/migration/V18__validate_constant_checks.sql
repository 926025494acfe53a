-- Every row already met the checks V17 replaced; this proves it without holding writers back (SHARE UPDATE EXCLUSIVE).
alter table reminders validate constraint reminders_state_check;
alter table reminders validate constraint reminders_channel_check;
