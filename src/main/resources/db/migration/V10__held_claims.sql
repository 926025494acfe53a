-- A claim's fencing token (docs/delivery.md, "Leases"): when the claim was made. Every settling write names it, while
-- lease_until, the claim's expiry, is renewed for as long as an instance holds the claim. Nullable and without a
-- default: adding it rewrites no rows, and instances of the previous release, which fence on lease_until, keep working
-- during an upgrade.
alter table reminders add column claimed_at timestamptz;

-- deferred_until is now a reminder's next send time whenever it is later than fire_at: quiet hours, a retry waiting
-- out its backoff or a Retry-After, a redrive, a registration already past its fire_at (quiethours.Deferrals). It
-- keeps its name so that the previous release keeps reading it during an upgrade.
comment on column reminders.deferred_until is
    'next send time when later than fire_at (quiet hours, a retry''s wait, a redrive, a registration past due)';
