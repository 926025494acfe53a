package dev.tickler.console.rest;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;

import org.jboss.resteasy.reactive.RestForm;
import org.jboss.resteasy.reactive.RestQuery;

import io.smallrye.mutiny.Uni;

import dev.tickler.console.ConsoleSessions;
import dev.tickler.console.DeadLetters;
import dev.tickler.operator.FireWindow;
import dev.tickler.problem.FieldError;
import dev.tickler.reminder.ListPosition;
import dev.tickler.security.ApiKeys;

/**
 * Dead letters (docs/contract.md#operator-console): failed reminders by filter, redriven one, the selected ones or all
 * matching, each after a confirmation page that shows how many it will redrive.
 */
@Path("/ops/dead-letters")
public class DeadLetterResource {

    private static final int PAGE_SIZE = 50;
    static final String SELECTED = "selected";
    static final String MATCHING = "matching";

    /**
     * The filter as the form holds it; blank fields do not filter. The fire_at bounds are read as the operator API
     * reads them; a form with a bound that names no instant matches nothing, so it can never redrive more than asked.
     */
    public record FilterForm(String tenant, String userId, String channel, String template, String error, String fireFrom,
            String fireTo) {

        /** The filter, or empty with the reasons added to {@code problems}. */
        Optional<DeadLetters.Filter> filter(List<String> problems) {
            List<FieldError> errors = new ArrayList<>();
            FireWindow window = FireWindow.of(blankAsNull(fireFrom), blankAsNull(fireTo), errors);
            errors.forEach(refused -> problems.add(refused.field() + " " + refused.message()));
            return errors.isEmpty() ? Optional.of(DeadLetters.Filter.of(tenant, userId, channel, template, error,
                    window.from(), window.to())) : Optional.empty();
        }

        String query() {
            return Query.of("tenant", tenant, "user_id", userId, "channel", channel, "template", template, "error", error,
                    "fire_from", fireFrom, "fire_to", fireTo);
        }

        private static String blankAsNull(String value) {
            return value == null || value.isBlank() ? null : value.strip();
        }
    }

    private final DeadLetters deadLetters;
    private final ConsoleSessions sessions;
    private final ConsoleRequest request;
    private final ApiKeys keys;

    public DeadLetterResource(DeadLetters deadLetters, ConsoleSessions sessions, ConsoleRequest request,
            ApiKeys keys) {
        this.deadLetters = deadLetters;
        this.keys = keys;
        this.sessions = sessions;
        this.request = request;
    }

    @GET
    public Uni<Response> list(@RestQuery String tenant, @RestQuery("user_id") String userId, @RestQuery String channel,
            @RestQuery String template, @RestQuery String error, @RestQuery("fire_from") String fireFrom,
            @RestQuery("fire_to") String fireTo, @RestQuery String after, @RestQuery Long matched,
            @RestQuery Long redriven) {
        FilterForm form = new FilterForm(tenant, userId, channel, template, error, fireFrom, fireTo);
        List<String> problems = new ArrayList<>();
        Optional<DeadLetters.Filter> filter = form.filter(problems);
        if (filter.isEmpty()) {
            return Html.page(400, Templates.deadLetters(page("Dead letters"), form, keys.tenants(), problems, List.of(), 0, null,
                    null));
        }
        ListPosition position = after == null ? null : ListPosition.fromCursor(after).orElse(null);
        return Uni.combine().all().unis(deadLetters.find(filter.get(), position, PAGE_SIZE),
                        deadLetters.countMatching(filter.get())).asTuple()
                .chain(found -> {
                    DeadLetters.Page page = found.getItem1();
                    String next = page.next() == null ? null
                            : joined(form.query(), Query.of("after", page.next().toCursor()));
                    String notice = matched == null || redriven == null ? null
                            : "Redrove " + redriven + " of " + matched + (matched == 1 ? " reminder" : " reminders")
                                    + (redriven < matched ? " (the others were no longer failed)." : ".");
                    return Html.ok(Templates.deadLetters(page("Dead letters"), form, keys.tenants(), problems,
                            page.items().stream().map(Views.ReminderLine::of).toList(), found.getItem2(), next,
                            notice));
                });
    }

    /** Changes nothing: shows what a redrive would take, and asks. */
    @POST
    @Path("/confirm")
    public Uni<Response> confirm(@RestForm String csrf, @RestForm String scope, @RestForm Long only,
            @RestForm("id") List<Long> ids, @RestForm String tenant, @RestForm("user_id") String userId,
            @RestForm String channel,
            @RestForm String template, @RestForm String error, @RestForm("fire_from") String fireFrom,
            @RestForm("fire_to") String fireTo) {
        if (!sessions.formTokenMatches(request.session(), csrf)) {
            return FormGuard.refused(request, sessions);
        }
        FilterForm form = new FilterForm(tenant, userId, channel, template, error, fireFrom, fireTo);
        if (only != null || !MATCHING.equals(scope)) {
            List<Long> chosen = only != null ? List.of(only) : ids == null ? List.of() : ids;
            return deadLetters.countFailed(chosen).chain(count -> Html.ok(Templates.confirmRedrive(
                    page("Confirm redrive"), new Templates.Confirmation(SELECTED, count, chosen, form))));
        }
        Optional<DeadLetters.Filter> filter = form.filter(new ArrayList<>());
        Uni<Long> matching = filter.isEmpty() ? Uni.createFrom().item(0L) : deadLetters.countMatching(filter.get());
        return matching.chain(count -> Html.ok(Templates.confirmRedrive(page("Confirm redrive"),
                new Templates.Confirmation(MATCHING, count, List.of(), form))));
    }

    @POST
    @Path("/redrive")
    public Uni<Response> redrive(@RestForm String csrf, @RestForm String scope, @RestForm("id") List<Long> ids,
            @RestForm String tenant, @RestForm("user_id") String userId, @RestForm String channel, @RestForm String template,
            @RestForm String error, @RestForm("fire_from") String fireFrom, @RestForm("fire_to") String fireTo) {
        if (!sessions.formTokenMatches(request.session(), csrf)) {
            return FormGuard.refused(request, sessions);
        }
        FilterForm form = new FilterForm(tenant, userId, channel, template, error, fireFrom, fireTo);
        Optional<DeadLetters.Filter> filter = form.filter(new ArrayList<>());
        Uni<DeadLetters.Outcome> outcome = !MATCHING.equals(scope)
                ? deadLetters.redrive(ids == null ? List.of() : ids, request.operator())
                : filter.isEmpty() ? Uni.createFrom().item(new DeadLetters.Outcome(0, 0))
                : deadLetters.redriveMatching(filter.get(), request.operator());
        return outcome.map(done -> Response.seeOther(URI.create("/ops/dead-letters?" + joined(form.query(),
                Query.of("matched", String.valueOf(done.matched()), "redriven", String.valueOf(done.redriven())))))
                .build());
    }

    private Page page(String title) {
        return new Page(title, "dead-letters", request.operator(), sessions.formToken(request.session()));
    }

    private static String joined(String first, String second) {
        return first.isEmpty() ? second : second.isEmpty() ? first : first + "&" + second;
    }
}
