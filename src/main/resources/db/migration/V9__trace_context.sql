-- The W3C traceparent of the request that registered the reminder (null when tracing was off). The sweep's publish
-- and the reconciler's take-over start traces of their own, long after the registration, and link them to it
-- (docs/operating.md, "Tracing"). Nullable and without a default: adding it rewrites no rows.
alter table reminders add column trace_context text;
