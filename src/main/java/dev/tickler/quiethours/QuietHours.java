package dev.tickler.quiethours;

import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * A user's quiet hours and the one rule that applies them (docs/quiet-hours.md): local times are read in
 * {@code zone}; a reminder at an instant covered by a window of its channel is deferred to the end of the last
 * window that overlaps or touches the chain (adjacent windows chain), or skipped, by {@code policy}.
 */
public record QuietHours(ZoneId zone, List<QuietWindow> windows, QuietPolicy policy) {

    /** Every channel a window may name, in the order the API lists them. */
    public static final List<String> CHANNELS = List.of("email", "sms", "push");

    /**
     * How far a chain of windows is followed. Windows that leave no gap in the week are refused with the defer policy,
     * so a chain ends within a week and a day; this bound only keeps a rule that slipped through from looping.
     */
    static final Duration LONGEST_CHAIN = Duration.ofDays(8);

    /** How many days back a window that covers an instant can have started: a wrapped window plus a DST shift. */
    private static final int DAYS_BACK = 2;

    public QuietHours {
        windows = List.copyOf(windows);
    }

    /**
     * The rule: allowed at {@code at} on {@code channel}, or deferred until the end of the chain of windows that
     * covers it, or skipped.
     */
    public QuietDecision nextAllowed(Instant at, String channel) {
        Instant end = coveringEnd(at, channel);
        if (end == null) {
            return QuietDecision.ALLOWED;
        }
        if (policy == QuietPolicy.SKIP) {
            return QuietDecision.SKIPPED;
        }
        Instant limit = at.plus(LONGEST_CHAIN);
        for (Instant next = coveringEnd(end, channel); next != null && end.isBefore(limit);
                next = coveringEnd(end, channel)) {
            end = next;
        }
        return new QuietDecision.Deferred(end);
    }

    /** {@link #nextAllowed}, where the expiry wins: a deferral that ends after {@code expiresAt} expires the reminder. */
    public QuietDecision check(Instant at, String channel, Instant expiresAt) {
        QuietDecision decision = nextAllowed(at, channel);
        if (decision instanceof QuietDecision.Deferred deferred && expiresAt != null
                && deferred.until().isAfter(expiresAt)) {
            return new QuietDecision.Expired(deferred.until());
        }
        return decision;
    }

    /** The same for a reminder that may carry no quiet hours (none set, or urgent). */
    public static QuietDecision check(QuietHours quietHours, Instant at, String channel, Instant expiresAt) {
        return quietHours == null ? QuietDecision.ALLOWED : quietHours.check(at, channel, expiresAt);
    }

    /** The latest end of the windows that cover {@code at} (start inclusive, end exclusive); null when none does. */
    private Instant coveringEnd(Instant at, String channel) {
        LocalDate today = at.atZone(zone).toLocalDate();
        Instant latest = null;
        for (QuietWindow window : windows) {
            if (!window.appliesTo(channel)) {
                continue;
            }
            for (int back = 0; back <= DAYS_BACK; back++) {
                LocalDate day = today.minusDays(back);
                if (!window.days().contains(day.getDayOfWeek())) {
                    continue;
                }
                Instant end = window.endOn(day, zone);
                if (!at.isBefore(window.startOn(day, zone)) && at.isBefore(end)
                        && (latest == null || end.isAfter(latest))) {
                    latest = end;
                }
            }
        }
        return latest;
    }

    /**
     * Channels for which the windows leave not one minute of the week free (wall-clock time, DST aside): with the
     * defer policy nothing on them could ever be sent.
     */
    public Set<String> channelsQuietAllWeek() {
        Set<String> always = new TreeSet<>(Comparator.comparingInt(CHANNELS::indexOf));
        int week = 7 * QuietWindow.MINUTES_A_DAY;
        for (String channel : CHANNELS) {
            boolean[] quiet = new boolean[week];
            for (QuietWindow window : windows) {
                if (!window.appliesTo(channel)) {
                    continue;
                }
                int length = window.wrapsPastMidnight()
                        ? window.endMinute() + QuietWindow.MINUTES_A_DAY - window.startMinute()
                        : window.endMinute() - window.startMinute();
                for (DayOfWeek day : window.days()) {
                    int from = (day.getValue() - 1) * QuietWindow.MINUTES_A_DAY + window.startMinute();
                    for (int minute = 0; minute < length; minute++) {
                        quiet[(from + minute) % week] = true;
                    }
                }
            }
            boolean free = false;
            for (boolean minute : quiet) {
                free |= !minute;
            }
            if (!free) {
                always.add(channel);
            }
        }
        return always;
    }

    /** Days as the API names them: mon … sun. */
    public static String dayName(DayOfWeek day) {
        return day.name().substring(0, 3).toLowerCase(Locale.ROOT);
    }

    public static DayOfWeek day(String name) {
        for (DayOfWeek day : DayOfWeek.values()) {
            if (dayName(day).equals(name)) {
                return day;
            }
        }
        return null;
    }

    /** The windows as the API shows and the table stores them, days and channels in their natural order. */
    public List<Map<String, Object>> windowsAsJson() {
        List<Map<String, Object>> json = new ArrayList<>();
        for (QuietWindow window : windows) {
            Map<String, Object> one = new LinkedHashMap<>();
            one.put("days", EnumSet.copyOf(window.days()).stream().map(QuietHours::dayName).toList());
            one.put("start", QuietWindow.clock(window.startMinute()));
            one.put("end", QuietWindow.clock(window.endMinute()));
            one.put("channels", CHANNELS.stream().filter(window.channels()::contains).toList());
            json.add(one);
        }
        return json;
    }

    /** Reads quiet hours as {@link #toJson()} writes them (and as the claim and the sweep read them from the table). */
    public static QuietHours fromJson(String text) {
        JsonObject json = new JsonObject(text);
        List<QuietWindow> windows = new ArrayList<>();
        JsonArray stored = json.getJsonArray("windows");
        for (int i = 0; i < stored.size(); i++) {
            JsonObject window = stored.getJsonObject(i);
            Set<DayOfWeek> days = EnumSet.noneOf(DayOfWeek.class);
            window.getJsonArray("days").forEach(day -> days.add(day((String) day)));
            Set<String> channels = new TreeSet<>();
            window.getJsonArray("channels").forEach(channel -> channels.add((String) channel));
            windows.add(new QuietWindow(days, minuteOf(window.getString("start")), minuteOf(window.getString("end")),
                    channels));
        }
        return new QuietHours(ZoneId.of(json.getString("tz")), windows,
                QuietPolicy.find(json.getString("policy")).orElseThrow());
    }

    public String toJson() {
        return new JsonObject().put("tz", zone.getId()).put("policy", policy.wireName())
                .put("windows", new JsonArray(windowsAsJson())).encode();
    }

    /** Minutes of the day of "HH:mm" (24:00 included); -1 when the text is not such a time. */
    public static int minuteOf(String clock) {
        if (clock == null || !clock.matches("([01][0-9]|2[0-3]):[0-5][0-9]|24:00")) {
            return -1;
        }
        return Integer.parseInt(clock.substring(0, 2)) * 60 + Integer.parseInt(clock.substring(3));
    }
}
