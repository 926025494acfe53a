package dev.tickler.console.rest;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.format.DateTimeFormatter;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;

import org.jboss.resteasy.reactive.RestForm;
import org.jboss.resteasy.reactive.RestPath;
import org.jboss.resteasy.reactive.RestQuery;

import io.smallrye.mutiny.Uni;

import dev.tickler.console.BarChart;
import dev.tickler.console.ConsoleSessions;
import dev.tickler.console.OverviewFigures.LatenessBucket;
import dev.tickler.console.OverviewFigures;
import dev.tickler.console.QueueFigures;
import dev.tickler.console.ReminderDesk;
import dev.tickler.ledger.ReminderRow;
import dev.tickler.ledger.ReminderState;
import dev.tickler.operator.Overview.TenantFigures;
import dev.tickler.problem.ProblemException;
import dev.tickler.quiethours.QuietHoursService;
import dev.tickler.quiethours.StoredQuietHours;
import dev.tickler.reminder.ListPosition;
import dev.tickler.reminder.ReminderPage;
import dev.tickler.timeline.EventPosition;
import dev.tickler.validation.TextRules;

/** The console's overview, search, a reminder with its timeline, and the queues (docs/contract.md#operator-console). */
@Path("/ops")
public class ConsoleResource {

    static final String ID = "[0-9]{1,18}";
    private static final int PAGE_SIZE = 50;
    private static final int TIMELINE_PAGE_SIZE = 100;
    private static final DateTimeFormatter HOUR = DateTimeFormatter.ofPattern("HH:mm").withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter DAY_AND_HOUR = DateTimeFormatter.ofPattern("MM-dd HH:mm")
            .withZone(ZoneOffset.UTC);
    /** What a redrive from the detail page came to; the page shows it after the redirect. */
    private static final Map<String, String> NOTICES = Map.of(
            "redriven", "Redriven: the reminder is on its way again.",
            "not-failed", "Not redriven: the reminder is no longer failed.");

    private final ReminderDesk desk;
    private final QuietHoursService quietHours;
    private final OverviewFigures overview;
    private final QueueFigures queues;
    private final ConsoleSessions sessions;
    private final ConsoleRequest request;
    private final Clock clock;

    public ConsoleResource(ReminderDesk desk, QuietHoursService quietHours, OverviewFigures overview,
            QueueFigures queues, ConsoleSessions sessions, ConsoleRequest request, Clock clock) {
        this.desk = desk;
        this.quietHours = quietHours;
        this.overview = overview;
        this.queues = queues;
        this.sessions = sessions;
        this.request = request;
        this.clock = clock;
    }

    @GET
    public Uni<Response> overview() {
        return overview.overview(clock.instant()).chain(figures -> {
            List<Templates.StateCount> counts = new ArrayList<>();
            for (ReminderState state : ReminderState.values()) {
                counts.add(new Templates.StateCount(state.wireName(), figures.counts().getOrDefault(state, 0L)));
            }
            return Html.ok(Templates.overview(page("Overview", "overview"), counts,
                    figures.oldestOverdue().map(Views::duration).orElse("none"),
                    Views.millis(figures.dispatchLag().p50()), Views.millis(figures.dispatchLag().p95()),
                    Views.millis(figures.dispatchLag().p99()),
                    BarChart.of("Lateness of the last 24 hours' sends (fire_at → sent_at)", figures.lateness().stream()
                            .map(bucket -> new BarChart.Point(latenessLabel(bucket), bucket.count(), true)).toList()),
                    forecastChart(figures.forecast()), Arrays.stream(ReminderState.values())
                            .map(ReminderState::wireName).toList(), tenantLines(figures.byTenant())));
        });
    }

    private static List<Templates.TenantLine> tenantLines(Map<String, TenantFigures> byTenant) {
        return byTenant.entrySet().stream().map(tenant -> new Templates.TenantLine(tenant.getKey(),
                Arrays.stream(ReminderState.values()).map(tenant.getValue().counts()::get).toList(),
                lateness(tenant.getValue().latenessP99()))).toList();
    }

    private static String lateness(Duration duration) {
        return duration != null && duration.toSeconds() < 60 ? Views.millis(duration.toNanos() / 1e6)
                : Views.duration(duration);
    }

    @GET
    @Path("/search")
    public Uni<Response> search(@RestQuery String q, @RestQuery String after) {
        String query = q == null ? "" : q.strip();
        if (query.isEmpty()) {
            return Html.ok(Templates.search(page("Search", "search"), "", null, null, null, List.of()));
        }
        Uni<Optional<ReminderRow>> byId = query.matches(ID) ? desk.find(Long.parseLong(query))
                : Uni.createFrom().item(Optional.empty());
        ListPosition position = after == null ? null : ListPosition.fromCursor(after).orElse(null);
        Uni<ReminderPage> byUser = query.length() <= 128 ? desk.forUser(query, position, PAGE_SIZE)
                : Uni.createFrom().item(new ReminderPage(List.of(), null));
        Uni<List<StoredQuietHours>> userQuietHours = query.length() <= 128 && TextRules.isStorable(query)
                ? quietHours.findInEveryTenant(query) : Uni.createFrom().item(List.of());
        return Uni.combine().all().unis(byId, byUser, userQuietHours).asTuple().chain(found -> {
            ReminderPage userPage = found.getItem2();
            return Html.ok(Templates.search(page("Search", "search"), query,
                    found.getItem1().map(Views.ReminderLine::of).orElse(null),
                    userPage.items().stream().map(Views.ReminderLine::of).toList(),
                    userPage.next() == null ? null
                            : Query.of("q", query, "after", userPage.next().toCursor()),
                    found.getItem3().stream().map(Views.QuietHoursLines::of).toList()));
        });
    }

    @GET
    @Path("/reminders/{id: " + ID + "}")
    public Uni<Response> reminder(@RestPath long id, @RestQuery String after, @RestQuery String notice) {
        EventPosition position = after == null ? null : EventPosition.fromCursor(after).orElse(null);
        return Uni.combine().all().unis(desk.find(id), desk.timeline(id, position, TIMELINE_PAGE_SIZE)).asTuple()
                .chain(found -> {
                    if (found.getItem1().isEmpty()) {
                        return Html.page(404, Templates.refused(page("Not found", ""),
                                "There is no reminder " + id + "."));
                    }
                    ReminderRow reminder = found.getItem1().get();
                    var timeline = found.getItem2();
                    return Html.ok(Templates.reminder(page("Reminder " + id, "search"), id, Views.fields(reminder),
                            reminder.state() == ReminderState.FAILED,
                            timeline.map(events -> events.entries().stream().map(Views.EventLine::of).toList())
                                    .orElse(List.of()),
                            timeline.map(events -> events.next() == null ? null
                                    : Query.of("after", events.next().toCursor())).orElse(null),
                            notice == null ? null : NOTICES.get(notice)));
                });
    }

    /** The single redrive of the registration API, by the signed-in operator's key name. */
    @POST
    @Path("/reminders/{id: " + ID + "}/redrive")
    public Uni<Response> redrive(@RestPath long id, @RestForm String csrf) {
        if (!sessions.formTokenMatches(request.session(), csrf)) {
            return FormGuard.refused(request, sessions);
        }
        return desk.redrive(id, request.operator()).replaceWith("redriven")
                .onFailure(ProblemException.class).recoverWithItem("not-failed")
                .map(notice -> Response.seeOther(URI.create("/ops/reminders/" + id + "?notice=" + notice)).build());
    }

    @GET
    @Path("/queues")
    public Uni<Response> queues() {
        return queues.queues(clock.instant()).chain(figures -> Html.ok(Templates.queues(page("Queues", "queues"),
                figures)));
    }

    private Page page(String title, String section) {
        return new Page(title, section, request.operator(), sessions.formToken(request.session()));
    }

    /** Every sixth hour is labelled, with its date; the others have their time as a tooltip. */
    private static BarChart forecastChart(List<OverviewFigures.HourlyDue> hours) {
        List<BarChart.Point> points = new ArrayList<>();
        for (int i = 0; i < hours.size(); i++) {
            boolean labelled = i % 6 == 0;
            points.add(new BarChart.Point((labelled ? DAY_AND_HOUR : HOUR).format(hours.get(i).hour()),
                    hours.get(i).due(), labelled));
        }
        return BarChart.of("Due in the next 48 hours by UTC hour (pending, handed off, delivering)", points);
    }

    private static String latenessLabel(LatenessBucket bucket) {
        return bucket.upTo() == null ? "> 5 min" : "≤ " + Views.duration(bucket.upTo());
    }
}
