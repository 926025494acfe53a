-- Tenants (docs/api.md, "Tenants"): every reminder, schedule and quiet-hours row belongs to the tenant of the key that
-- created it. Existing rows belong to 'default', the tenant of every unnamed key, so an installation without names
-- keeps working unchanged. A constant default adds the column without rewriting the table.
alter table reminders add column tenant varchar(64) not null default 'default';
alter table schedules add column tenant varchar(64) not null default 'default';
alter table quiet_hours add column tenant varchar(64) not null default 'default';

-- The natural key of a registration is (tenant, user_id, template, fire_at): two tenants registering the same triple
-- get two reminders, and one cannot take another's key.
create unique index reminders_tenant_user_template_fire_at_key on reminders (tenant, user_id, template, fire_at)
    where schedule_id is null;
drop index reminders_user_template_fire_at_key;

-- A user's reminders and schedules are listed within the tenant that asks, in index order; an operator's list of
-- every tenant reads the same user's entries and sorts them.
create index reminders_user_tenant_fire_at_id_idx on reminders (user_id, tenant, fire_at, id);
drop index reminders_user_fire_at_id_idx;
create index schedules_user_tenant_id_idx on schedules (user_id, tenant, id);
drop index schedules_user_id_id_idx;

-- Quiet hours are per (tenant, user_id): one product's quiet hours never silence another's reminders.
alter table quiet_hours drop constraint quiet_hours_pkey;
alter table quiet_hours add primary key (tenant, user_id);
