-- Reminders by state without reading the table (docs/scaling.md): every statement that inserts, changes or deletes
-- reminders appends what it moved between states to reminder_state_deltas, one row per state it touched, in its own
-- transaction; the gauges fold the deltas into reminder_state_counts. Appends, not updates of a shared row: concurrent
-- writers never wait on each other for a count. Statement triggers over the transition tables count every writer,
-- including an instance of the previous release during an upgrade and an operator's hand-written SQL.
create table reminder_state_counts (
    state     varchar(16) primary key,
    reminders bigint      not null
);

-- No index: appended by the writes, read whole and emptied by the fold.
create table reminder_state_deltas (
    state varchar(16) not null,
    delta bigint      not null
);

create function reminders_count_inserted() returns trigger language plpgsql as $$
begin
    insert into reminder_state_deltas (state, delta) select state, count(*) from new_rows group by state;
    return null;
end $$;

create function reminders_count_updated() returns trigger language plpgsql as $$
begin
    insert into reminder_state_deltas (state, delta)
        select state, sum(delta) from (select state, 1 as delta from new_rows
                                       union all select state, -1 from old_rows) moved
        group by state having sum(delta) <> 0;
    return null;
end $$;

create function reminders_count_deleted() returns trigger language plpgsql as $$
begin
    insert into reminder_state_deltas (state, delta) select state, -count(*) from old_rows group by state;
    return null;
end $$;

create function reminders_count_truncated() returns trigger language plpgsql as $$
begin
    delete from reminder_state_deltas;
    update reminder_state_counts set reminders = 0;
    return null;
end $$;

-- Creating the first trigger locks out writers until this migration commits, so the counts below start from exactly
-- the rows that the triggers then count on from.
create trigger reminders_count_inserted after insert on reminders referencing new table as new_rows
    for each statement execute function reminders_count_inserted();
create trigger reminders_count_updated after update on reminders referencing old table as old_rows new table as new_rows
    for each statement execute function reminders_count_updated();
create trigger reminders_count_deleted after delete on reminders referencing old table as old_rows
    for each statement execute function reminders_count_deleted();
create trigger reminders_count_truncated after truncate on reminders
    for each statement execute function reminders_count_truncated();

insert into reminder_state_counts (state, reminders)
select s.state, coalesce(c.reminders, 0)
from unnest(array['pending', 'handed_off', 'delivering', 'sent', 'failed', 'cancelled', 'expired', 'skipped']) as s(state)
left join (select state, count(*) as reminders from reminders group by state) c on c.state = s.state;
