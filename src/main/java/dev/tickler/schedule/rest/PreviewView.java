package dev.tickler.schedule.rest;

import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.List;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.tickler.schedule.OccurrencePlan;

/** GET /v1/schedules/{id}/preview: the next occurrences, each with its local rendering and DST note. */
public record PreviewView(@Schema(required = true) List<Item> items) {

    /** dst is null, gap_shifted, overlap_earlier or overlap_later. */
    @Schema(name = "PreviewItem")
    public record Item(int occurrence, Instant fireAt, String fireAtLocal,
            @Schema(nullable = true, description = "gap_shifted, overlap_earlier or overlap_later; null when the DST"
                    + " policy did not touch it") String dst) {
    }

    public static PreviewView of(List<OccurrencePlan.Numbered> occurrences) {
        return new PreviewView(occurrences.stream().map(numbered -> {
            var occurrence = numbered.occurrence();
            return new Item(numbered.number(), occurrence.instant(),
                    occurrence.local().toOffsetDateTime().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME),
                    occurrence.note() == null ? null : occurrence.note().wireName());
        }).toList());
    }
}
