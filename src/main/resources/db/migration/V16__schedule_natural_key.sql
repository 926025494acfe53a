-- A schedule is registered once (docs/schedules.md, "Registering once"): (tenant, user_id, template, rrule, start, tz)
-- names it, as (tenant, user_id, template, fire_at) names a one-shot reminder, and this unique index decides a race of
-- two identical POSTs: the second insert finds the first (ON CONFLICT). The rule is indexed by its digest, as its
-- canonical text has no length limit of its own.
--
-- Schedules registered twice before this migration keep their duplicates: each one but the first of a natural key
-- names the first in duplicate_of and stays out of the index. A constant (null) default adds the column without
-- rewriting the table.
alter table schedules add column duplicate_of bigint;

update schedules set duplicate_of = twins.first_id
from (select id, min(id) over (partition by tenant, user_id, template, rrule, start, tz) as first_id
      from schedules) as twins
where schedules.id = twins.id and twins.first_id <> twins.id;

create unique index schedules_natural_key on schedules (tenant, user_id, template, md5(rrule), start, tz)
    where duplicate_of is null;
