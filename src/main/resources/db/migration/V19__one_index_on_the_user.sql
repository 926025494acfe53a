-- One index on the user instead of two, in two releases. A user's list (user_id, tenant, fire_at, id) and the natural
-- key (tenant, user_id, template, fire_at) are both written by every insert and by every transition, as no update of
-- a reminder is HOT (docs/scaling.md). The natural key's columns in the list's order serve both: a user's list reads
-- its rows in fire_at order, with an incremental sort on id among equal times, and the last column names the rows the
-- natural key is unique among (one-shot reminders without a key); it is null for the others, and nulls never
-- conflict. The rows were unique under the natural key's index, so building this one finds no duplicate.
create unique index reminders_user_natural_key on reminders
    (user_id, tenant, fire_at, template, (case when schedule_id is null and key is null then true end));

-- The previous release's lists read the index above as they read this one.
drop index reminders_user_tenant_fire_at_id_idx;

-- reminders_tenant_natural_key stays for now: the previous release's registrations name it in their ON CONFLICT, and
-- they run on this schema until its instances are gone, or again after a rollback (docs/deploying.md, "Upgrade and
-- rollback"). The next release drops it.
