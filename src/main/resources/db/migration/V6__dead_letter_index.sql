-- Dead letters in the operator API's order (SPEC §13): searching and bulk-redriving failed reminders reads this small
-- index, walked by (fire_at, id) keyset, instead of the whole table. Written only when a reminder enters or leaves
-- failed, which the hot paths rarely do.
create index reminders_failed_fire_at_id_idx on reminders (fire_at, id) where state = 'failed';
