package dev.tickler.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.inject.Inject;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;

import dev.tickler.testing.Database;
import dev.tickler.testing.QueryPlan;

/**
 * A schedule's queries read through the indexes made for them, among many one-shot reminders and many schedules: a
 * top-up's count, a user's list, and the backstop's search for schedules short of occurrences.
 */
@QuarkusTest
class ScheduleQueryPlanTest {

    @Inject
    Database database;

    @Inject
    Pool pool;

    @BeforeEach
    void manySchedulesAndReminders() {
        if (database.count("SELECT count(*) FROM schedules WHERE user_id LIKE 'plan-schedule-%'") > 0) {
            return;
        }
        database.execute("INSERT INTO schedules (user_id, channel, template, tz, start, rrule, dst_gap, dst_overlap,"
                + " catch_up, state, created_by, created_at, updated_at)"
                + " SELECT 'plan-schedule-' || (g % 500), 'email', 't' || g, 'UTC', '2030-01-01T09:00', 'FREQ=DAILY',"
                + " 'shift', 'first', 'latest', CASE WHEN g % 10 = 0 THEN 'ended' ELSE 'active' END, 'key-1', now(),"
                + " now() FROM generate_series(1, 5000) g");
        database.execute("INSERT INTO reminders (user_id, channel, template, fire_at, state, schedule_id, occurrence)"
                + " SELECT s.user_id, 'email', 't', now() + interval '30 days' + (s.id * 10 + o) * interval '1 second',"
                + " CASE WHEN o = 1 THEN 'sent' ELSE 'pending' END, s.id, o"
                + " FROM schedules s CROSS JOIN generate_series(1, 3) o WHERE s.user_id LIKE 'plan-schedule-%'");
        database.execute("INSERT INTO reminders (user_id, channel, template, fire_at, state)"
                + " SELECT 'plan-one-shot', 'email', 't' || g, now() + g * interval '1 second', 'sent'"
                + " FROM generate_series(1, 50000) g");
        database.execute("ANALYZE schedules");
        database.execute("ANALYZE reminders");
    }

    @Test
    void aTopUpCountsFromThePartialIndexOfUnfinishedOccurrences() {
        long id = database.count("SELECT min(id) FROM schedules WHERE user_id LIKE 'plan-schedule-%'");

        QueryPlan plan = QueryPlan.explain(pool, "ANALYZE, FORMAT JSON", ScheduleRepository.COUNT_UNFINISHED, id);

        assertThat(plan.seqScanned()).isEmpty();
        assertThat(plan.indexes()).contains("reminders_schedule_unfinished_idx");
    }

    @Test
    void aUsersListReadsItsIndex() {
        QueryPlan plan = QueryPlan.explain(pool, "ANALYZE, FORMAT JSON", ScheduleRepository.LIST, "plan-schedule-7",
                0L, 51, "default");
        QueryPlan everyTenant = QueryPlan.explain(pool, "ANALYZE, FORMAT JSON", ScheduleRepository.LIST_EVERY_TENANT,
                "plan-schedule-7", 0L, 51);

        assertThat(plan.seqScanned()).isEmpty();
        assertThat(plan.indexes()).contains("schedules_user_tenant_id_idx");
        assertThat(everyTenant.seqScanned()).isEmpty();
        assertThat(everyTenant.indexes()).contains("schedules_user_tenant_id_idx");
    }

    @Test
    void theBackstopReadsActiveSchedulesAndCountsThroughTheIndex() {
        QueryPlan plan = QueryPlan.explain(pool, "ANALYZE, FORMAT JSON", ScheduleRepository.SHORT_OF_OCCURRENCES,
                0L, 500);
        System.out.printf("backstop query over 5000 schedules: %.3f ms, indexes %s%n", plan.executionMillis(),
                plan.indexes());

        assertThat(plan.seqScanned()).doesNotContain("reminders");
        assertThat(plan.indexes()).contains("reminders_schedule_unfinished_idx");
    }
}
