package dev.tickler.quiethours.rest;

import java.time.DayOfWeek;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.tickler.problem.FieldError;
import dev.tickler.quiethours.QuietHours;
import dev.tickler.quiethours.QuietPolicy;
import dev.tickler.quiethours.QuietWindow;
import dev.tickler.time.ReminderTiming;
import dev.tickler.web.JsonBody;

/** The body of PUT /v1/users/{user_id}/quiet-hours; {@link #problems()} names every field that is wrong. */
@Schema(examples = """
        {"tz": "Europe/Berlin", "windows": [{"days": ["mon", "tue", "wed", "thu", "fri"], "start": "22:00",
         "end": "07:30", "channels": ["sms", "push"]}], "policy": "defer"}""")
public record QuietHoursRequest(
        @Schema(required = true, description = "An IANA time zone id, e.g. Europe/Berlin") String tz,
        @Schema(required = true, minItems = 1, maxItems = MAX_WINDOWS) List<Window> windows,
        @Schema(enumeration = {"defer", "skip"}, description = POLICY) String policy) implements JsonBody {

    /** More windows than any real week of quiet hours needs: four a day. */
    static final int MAX_WINDOWS = 28;

    static final String POLICY = "What a reminder due inside a window does: defer (to the window's end) or skip";

    /** One window, in a body and in every answer (where days and channels are filled in). */
    @Schema(name = "QuietWindow")
    public record Window(
            @Schema(type = SchemaType.ARRAY, minItems = 1, description = "Days the window starts on: mon, tue, wed, thu, fri, sat,"
                    + " sun; all when left out") List<String> days,
            @Schema(required = true, pattern = "([01][0-9]|2[0-3]):[0-5][0-9]",
                    description = "Local time HH:mm the window starts at") String start,
            @Schema(required = true, pattern = "([01][0-9]|2[0-3]):[0-5][0-9]|24:00",
                    description = "Local time HH:mm it ends at; before start when it runs past midnight") String end,
            @Schema(type = SchemaType.ARRAY, minItems = 1, description = "Channels it holds back: email, sms, push; all when left out")
            List<String> channels) {
    }

    @Override
    public List<FieldError> problems() {
        List<FieldError> problems = new ArrayList<>();
        if (tz == null) {
            problems.add(new FieldError("tz", "is required: an IANA time zone id, e.g. Europe/Berlin"));
        } else if (!ReminderTiming.isZoneId(tz)) {
            problems.add(new FieldError("tz", "must be an IANA time zone id, e.g. Europe/Berlin"));
        }
        if (policy != null && QuietPolicy.find(policy).isEmpty()) {
            problems.add(new FieldError("policy", "must be defer or skip"));
        }
        if (windows == null) {
            problems.add(new FieldError("windows", "is required: 1 to " + MAX_WINDOWS + " windows"));
        } else if (windows.isEmpty() || windows.size() > MAX_WINDOWS) {
            problems.add(new FieldError("windows", "must hold 1 to " + MAX_WINDOWS + " windows; it holds "
                    + windows.size() + " (DELETE removes quiet hours)"));
        } else {
            for (int i = 0; i < windows.size(); i++) {
                windowProblems(windows.get(i), "windows[" + i + "]", problems);
            }
        }
        return problems;
    }

    private static void windowProblems(Window window, String at, List<FieldError> problems) {
        if (window == null) {
            problems.add(new FieldError(at, "must be a JSON object"));
            return;
        }
        if (window.days() != null) {
            namesProblems(window.days(), at + ".days", "mon, tue, wed, thu, fri, sat or sun",
                    name -> QuietHours.day(name) != null, problems);
        }
        if (window.channels() != null) {
            namesProblems(window.channels(), at + ".channels", "email, sms or push", QuietHours.CHANNELS::contains,
                    problems);
        }
        int start = QuietHours.minuteOf(window.start());
        int end = QuietHours.minuteOf(window.end());
        if (window.start() == null) {
            problems.add(new FieldError(at + ".start", "is required: a local time HH:mm, e.g. 22:00"));
        } else if (start < 0 || start == QuietWindow.MINUTES_A_DAY) {
            problems.add(new FieldError(at + ".start", "must be a local time HH:mm from 00:00 to 23:59"));
        }
        if (window.end() == null) {
            problems.add(new FieldError(at + ".end", "is required: a local time HH:mm, e.g. 07:30"));
        } else if (end < 0) {
            problems.add(new FieldError(at + ".end", "must be a local time HH:mm from 00:00 to 24:00"));
        } else if (end == start) {
            problems.add(new FieldError(at + ".end", "must differ from start: a window is neither empty nor a whole"
                    + " day that wraps (use 00:00 to 24:00 for a whole day)"));
        }
    }

    private static void namesProblems(List<String> names, String field, String allowed,
            java.util.function.Predicate<String> known, List<FieldError> problems) {
        if (names.isEmpty()) {
            problems.add(new FieldError(field, "must not be empty; leave it out for all"));
            return;
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < names.size(); i++) {
            String name = names.get(i);
            if (name == null || !known.test(name)) {
                problems.add(new FieldError(field + "[" + i + "]", "must be " + allowed));
            } else if (!seen.add(name)) {
                problems.add(new FieldError(field + "[" + i + "]", "is repeated"));
            }
        }
    }

    /** The quiet hours this valid body describes: days and channels default to all, policy to defer. */
    QuietHours toQuietHours() {
        List<QuietWindow> read = new ArrayList<>();
        for (Window window : windows) {
            Set<DayOfWeek> days = EnumSet.allOf(DayOfWeek.class);
            if (window.days() != null) {
                days = EnumSet.noneOf(DayOfWeek.class);
                for (String day : window.days()) {
                    days.add(QuietHours.day(day));
                }
            }
            Set<String> channels = window.channels() == null ? Set.copyOf(QuietHours.CHANNELS)
                    : Set.copyOf(window.channels());
            read.add(new QuietWindow(days, QuietHours.minuteOf(window.start()), QuietHours.minuteOf(window.end()),
                    channels));
        }
        return new QuietHours(ZoneId.of(tz), read, policy == null ? QuietPolicy.DEFER : QuietPolicy.find(policy).get());
    }
}
