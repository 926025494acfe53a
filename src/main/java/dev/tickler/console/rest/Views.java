package dev.tickler.console.rest;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import io.vertx.core.json.JsonObject;

import dev.tickler.ledger.ReminderRow;
import dev.tickler.quiethours.StoredQuietHours;
import dev.tickler.timeline.TimelinePage;

/** Rows and values as the templates print them; everything is text, for the templates to escape. */
final class Views {

    private Views() {
    }

    record ReminderLine(long id, String tenant, String userId, String channel, String template, String fireAt, String state,
            int attempts, String lastError) {

        static ReminderLine of(ReminderRow row) {
            return new ReminderLine(row.id(), row.tenant(), row.userId(), row.channel().wireName(), row.template(),
                    time(row.fireAt()), row.state().wireName(), row.attempts(), row.lastError());
        }
    }

    record Field(String name, String value) {
    }

    /** A user's quiet hours: policy, zone, and one line per window, e.g. "mon tue wed 22:00–07:30 sms push". */
    record QuietHoursLines(String tenant, String policy, String tz, List<String> windows, String updatedAt) {

        @SuppressWarnings("unchecked")
        static QuietHoursLines of(StoredQuietHours stored) {
            List<String> windows = stored.quietHours().windowsAsJson().stream()
                    .map(window -> String.join(" ", (List<String>) window.get("days")) + " " + window.get("start")
                            + "–" + window.get("end") + " " + String.join(" ", (List<String>) window.get("channels")))
                    .toList();
            return new QuietHoursLines(stored.tenant(), stored.quietHours().policy().wireName(), stored.quietHours().zone().getId(),
                    windows, time(stored.updatedAt()));
        }
    }

    record EventLine(String at, String type, String details) {

        static EventLine of(TimelinePage.Entry entry) {
            return new EventLine(time(entry.event().at()), entry.event().type().wireName(),
                    detailText(entry.event().detail()));
        }
    }

    static List<Field> fields(ReminderRow row) {
        List<Field> fields = new ArrayList<>();
        fields.add(new Field("id", String.valueOf(row.id())));
        fields.add(new Field("tenant", row.tenant()));
        fields.add(new Field("user_id", row.userId()));
        fields.add(new Field("channel", row.channel().wireName()));
        fields.add(new Field("template", row.template()));
        fields.add(new Field("fire_at", time(row.fireAt())));
        fields.add(new Field("tz", row.tz()));
        fields.add(new Field("state", row.state().wireName()));
        fields.add(new Field("version", String.valueOf(row.version())));
        fields.add(new Field("attempts", String.valueOf(row.attempts())));
        fields.add(new Field("message_id", text(row.messageId())));
        fields.add(new Field("last_error", text(row.lastError())));
        fields.add(new Field("expires_at", time(row.expiresAt())));
        fields.add(new Field("created_at", time(row.createdAt())));
        fields.add(new Field("updated_at", time(row.updatedAt())));
        fields.add(new Field("sent_at", time(row.sentAt())));
        fields.add(new Field("data", new JsonObject(row.data()).encode()));
        fields.add(new Field("urgent", String.valueOf(row.urgent())));
        return fields;
    }

    static String time(Instant instant) {
        return instant == null ? "—" : instant.truncatedTo(ChronoUnit.MILLIS).toString();
    }

    static String duration(Duration duration) {
        if (duration == null) {
            return "—";
        }
        long seconds = duration.toSeconds();
        if (seconds < 60) {
            return seconds + " s";
        }
        if (seconds < 3600) {
            return seconds / 60 + " min" + (seconds % 60 == 0 ? "" : " " + seconds % 60 + " s");
        }
        return seconds / 3600 + " h" + (seconds % 3600 / 60 == 0 ? "" : " " + seconds % 3600 / 60 + " min");
    }

    static String millis(Double millis) {
        return millis == null ? "—" : Math.round(millis) + " ms";
    }

    private static String text(String value) {
        return value == null ? "—" : value;
    }

    private static String detailText(Map<String, Object> detail) {
        return detail.entrySet().stream().map(entry -> entry.getKey() + "=" + entry.getValue())
                .collect(Collectors.joining(" · "));
    }
}
