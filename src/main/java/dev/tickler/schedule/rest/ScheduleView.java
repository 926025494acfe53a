package dev.tickler.schedule.rest;

import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.Map;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.tickler.ledger.Channel;
import dev.tickler.schedule.CatchUp;
import dev.tickler.schedule.ScheduleRow;
import dev.tickler.schedule.ScheduleState;

/**
 * The schedule representation every response uses. {@code start} is rendered to the second; {@code last_occurrence}
 * is the highest occurrence number given out so far (0 before the first).
 */
public record ScheduleView(long id, String tenant, String userId, Channel channel, String template, Map<String, Object> data,
        @Schema(nullable = true) String expiresAfter, String tz, String start, String rrule, Dst dst, CatchUp catchUp,
        ScheduleState state, long skippedCount, int lastOccurrence, int version, Instant createdAt,
        Instant updatedAt) {

    /** The rendering of local date-times: always with seconds. */
    public static final DateTimeFormatter LOCAL = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss");

    public record Dst(@Schema(enumeration = {"shift", "skip"}) String gap,
            @Schema(enumeration = {"first", "last"}) String overlap) {
    }

    public static ScheduleView of(ScheduleRow schedule) {
        var definition = schedule.definition();
        return new ScheduleView(schedule.id(), schedule.tenant(), schedule.userId(), schedule.channel(), schedule.template(),
                schedule.data(), schedule.expiresAfter() == null ? null : schedule.expiresAfter().toString(),
                definition.tz(), LOCAL.format(definition.start()), definition.rule().toString(),
                new Dst(definition.dst().gap().wireName(), definition.dst().overlap().wireName()), schedule.catchUp(),
                schedule.state(), schedule.skippedCount(), schedule.lastNumber(), schedule.version(),
                schedule.createdAt(), schedule.updatedAt());
    }
}
