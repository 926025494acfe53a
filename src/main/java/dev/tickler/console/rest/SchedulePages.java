package dev.tickler.console.rest;

import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;

import org.jboss.resteasy.reactive.RestPath;
import org.jboss.resteasy.reactive.RestQuery;

import io.smallrye.mutiny.Uni;

import dev.tickler.console.ConsoleSessions;
import dev.tickler.console.ScheduleDesk;
import dev.tickler.problem.ProblemException;
import dev.tickler.schedule.OccurrencePlan;
import dev.tickler.schedule.ScheduleRow;

/** A user's schedules, and a schedule with its next occurrences and their DST notes. */
@Path("/ops/schedules")
public class SchedulePages {

    private static final int PAGE_SIZE = 50;
    private static final int PREVIEW = 20;
    private static final DateTimeFormatter LOCAL = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss");

    /** One schedule in a list. */
    record ScheduleLine(long id, String template, String channel, String rule, String tz, String state) {

        static ScheduleLine of(ScheduleRow schedule) {
            return new ScheduleLine(schedule.id(), schedule.template(), schedule.channel().wireName(),
                    schedule.definition().rule().toString(), schedule.definition().tz(), schedule.state().wireName());
        }
    }

    /** One upcoming occurrence; dst is empty when no DST rule applied. */
    record OccurrenceLine(int occurrence, String fireAt, String local, String dst) {

        static OccurrenceLine of(OccurrencePlan.Numbered numbered) {
            var occurrence = numbered.occurrence();
            return new OccurrenceLine(numbered.number(), Views.time(occurrence.instant()),
                    occurrence.local().toOffsetDateTime().toString(),
                    occurrence.note() == null ? "" : occurrence.note().wireName());
        }
    }

    private final ScheduleDesk desk;
    private final ConsoleSessions sessions;
    private final ConsoleRequest request;

    public SchedulePages(ScheduleDesk desk, ConsoleSessions sessions, ConsoleRequest request) {
        this.desk = desk;
        this.sessions = sessions;
        this.request = request;
    }

    @GET
    public Uni<Response> forUser(@RestQuery("user_id") String userId, @RestQuery Long after) {
        String user = userId == null ? "" : userId.strip();
        if (user.isEmpty() || user.length() > 128) {
            return Html.page(400, Templates.refused(page("Schedules"),
                    "Give a user id, as the search page does."));
        }
        return desk.forUser(user, after, PAGE_SIZE).chain(found -> Html.ok(Templates.schedules(page("Schedules"),
                user, Query.of("q", user), found.items().stream().map(ScheduleLine::of).toList(),
                found.next() == null ? null : Query.of("user_id", user, "after", found.next().toString()))));
    }

    @GET
    @Path("/{id: " + ConsoleResource.ID + "}")
    public Uni<Response> schedule(@RestPath long id) {
        return desk.find(id).chain(found -> {
            if (found.isEmpty()) {
                return Html.page(404, Templates.refused(page("Not found"), "There is no schedule " + id + "."));
            }
            ScheduleRow schedule = found.get();
            String userQuery = Query.of("q", schedule.userId());
            return desk.preview(id, PREVIEW)
                    .chain(upcoming -> Html.ok(Templates.schedule(page("Schedule " + id), userQuery, fields(schedule),
                            upcoming.stream().map(OccurrenceLine::of).toList(), null)))
                    .onFailure(ProblemException.class).recoverWithUni(tooFarBehind -> Html.ok(Templates.schedule(
                            page("Schedule " + id), userQuery, fields(schedule), List.of(), tooFarBehind.getMessage())));
        });
    }

    private static List<Views.Field> fields(ScheduleRow schedule) {
        var definition = schedule.definition();
        List<Views.Field> fields = new ArrayList<>();
        fields.add(new Views.Field("user_id", schedule.userId()));
        fields.add(new Views.Field("channel", schedule.channel().wireName()));
        fields.add(new Views.Field("template", schedule.template()));
        fields.add(new Views.Field("state", schedule.state().wireName()));
        fields.add(new Views.Field("rrule", definition.rule().toString()));
        fields.add(new Views.Field("start", LOCAL.format(definition.start())));
        fields.add(new Views.Field("tz", definition.tz()));
        fields.add(new Views.Field("dst", "gap " + definition.dst().gap().wireName() + ", overlap "
                + definition.dst().overlap().wireName()));
        fields.add(new Views.Field("catch_up", schedule.catchUp().wireName()));
        fields.add(new Views.Field("skipped_count", String.valueOf(schedule.skippedCount())));
        fields.add(new Views.Field("last_occurrence", String.valueOf(schedule.lastNumber())));
        fields.add(new Views.Field("expires_after",
                schedule.expiresAfter() == null ? "never" : schedule.expiresAfter().toString()));
        return fields;
    }

    private Page page(String title) {
        return new Page(title, "search", request.operator(), sessions.formToken(request.session()));
    }
}
