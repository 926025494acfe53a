package dev.tickler.console.rest;

import java.util.List;

import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.TemplateInstance;

import dev.tickler.console.BarChart;
import dev.tickler.console.QueueFigures.Queues;

/** The console's pages, checked against these parameters when the application is built. */
@CheckedTemplate(basePath = "console")
final class Templates {

    private Templates() {
    }

    record StateCount(String state, long count) {
    }

    /** One tenant's counts in the order of {@code states}, and the p99 lateness of its last day's sends. */
    record TenantLine(String tenant, List<Long> counts, String latenessP99) {
    }

    record Confirmation(String scope, long count, List<Long> ids, DeadLetterResource.FilterForm filter) {
    }

    static native TemplateInstance signIn(Page page, String signInToken, String message);

    static native TemplateInstance overview(Page page, List<StateCount> counts, String oldestOverdue, String lagP50,
            String lagP95, String lagP99, BarChart lateness, BarChart forecast, List<String> states,
            List<TenantLine> tenants);

    static native TemplateInstance deadLetters(Page page, DeadLetterResource.FilterForm filter, List<String> tenants,
            List<String> problems, List<Views.ReminderLine> items, long matching, String nextQuery, String notice);

    static native TemplateInstance confirmRedrive(Page page, Confirmation confirmation);

    static native TemplateInstance search(Page page, String q, Views.ReminderLine byId, List<Views.ReminderLine> byUser,
            String nextQuery, List<Views.QuietHoursLines> quietHours);

    static native TemplateInstance reminder(Page page, long id, List<Views.Field> fields, boolean redrivable,
            List<Views.EventLine> events, String nextQuery, String notice);

    static native TemplateInstance queues(Page page, Queues queues);

    static native TemplateInstance schedules(Page page, String userId, String userQuery,
            List<SchedulePages.ScheduleLine> items, String nextQuery);

    /** {@code unavailable} says why there is no preview (a schedule paused for long), null when there is one. */
    static native TemplateInstance schedule(Page page, String userQuery, List<Views.Field> fields,
            List<SchedulePages.OccurrenceLine> upcoming, String unavailable);

    static native TemplateInstance refused(Page page, String message);
}
