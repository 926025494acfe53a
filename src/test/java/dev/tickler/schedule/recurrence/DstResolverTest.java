package dev.tickler.schedule.recurrence;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import dev.tickler.schedule.recurrence.DstPolicy.Gap;
import dev.tickler.schedule.recurrence.DstPolicy.Overlap;
import dev.tickler.schedule.recurrence.DstResolver.Resolved;

class DstResolverTest {

    private static final ZoneId NEW_YORK = ZoneId.of("America/New_York");
    private static final ZoneId LORD_HOWE = ZoneId.of("Australia/Lord_Howe");
    private static final DstPolicy SHIFT_FIRST = new DstPolicy(Gap.SHIFT, Overlap.FIRST);
    private static final DstPolicy SKIP_LAST = new DstPolicy(Gap.SKIP, Overlap.LAST);

    @Test
    void anUnambiguousWallTimeHasNoNote() {
        LocalDateTime wallTime = LocalDateTime.of(2026, 3, 7, 2, 30);

        assertThat(DstResolver.resolve(wallTime, NEW_YORK, SHIFT_FIRST))
                .contains(new Resolved(Instant.parse("2026-03-07T07:30:00Z"), null));
        assertThat(DstResolver.resolve(wallTime, NEW_YORK, SKIP_LAST))
                .contains(new Resolved(Instant.parse("2026-03-07T07:30:00Z"), null));
    }

    @Test
    void aWallTimeInAGapIsShiftedByTheGapOrSkipped() {
        LocalDateTime wallTime = LocalDateTime.of(2026, 3, 8, 2, 30);

        // 02:30 EST does not exist; shifted by the hour it is 03:30 EDT
        assertThat(DstResolver.resolve(wallTime, NEW_YORK, SHIFT_FIRST))
                .contains(new Resolved(Instant.parse("2026-03-08T07:30:00Z"), DstNote.GAP_SHIFTED));
        assertThat(DstResolver.resolve(wallTime, NEW_YORK, SKIP_LAST)).isEmpty();
        assertThat(Instant.parse("2026-03-08T07:30:00Z").atZone(NEW_YORK).toLocalDateTime())
                .isEqualTo(LocalDateTime.of(2026, 3, 8, 3, 30));
    }

    @Test
    void aWallTimeInAnOverlapTakesTheEarlierOrTheLaterInstant() {
        LocalDateTime wallTime = LocalDateTime.of(2026, 11, 1, 1, 30);

        assertThat(DstResolver.resolve(wallTime, NEW_YORK, SHIFT_FIRST))
                .contains(new Resolved(Instant.parse("2026-11-01T05:30:00Z"), DstNote.OVERLAP_EARLIER));
        assertThat(DstResolver.resolve(wallTime, NEW_YORK, SKIP_LAST))
                .contains(new Resolved(Instant.parse("2026-11-01T06:30:00Z"), DstNote.OVERLAP_LATER));
    }

    @Test
    void aHalfHourGapShiftsByHalfAnHour() {
        LocalDateTime wallTime = LocalDateTime.of(2026, 10, 4, 2, 15);
        assertThat(LORD_HOWE.getRules().getValidOffsets(wallTime)).isEmpty();

        Optional<Resolved> resolved = DstResolver.resolve(wallTime, LORD_HOWE, SHIFT_FIRST);

        assertThat(resolved).contains(new Resolved(Instant.parse("2026-10-03T15:45:00Z"), DstNote.GAP_SHIFTED));
        assertThat(resolved.get().instant().atZone(LORD_HOWE).toLocalDateTime())
                .isEqualTo(LocalDateTime.of(2026, 10, 4, 2, 45));
    }

    @Test
    void shiftAndFirstAgreeWithZonedDateTimeOfLocalAroundEveryTransitionOfEveryZone() {
        int checked = 0;
        for (String id : ZoneId.getAvailableZoneIds()) {
            ZoneId zone = ZoneId.of(id);
            ZoneRules rules = zone.getRules();
            Instant cursor = Instant.parse("1970-01-01T00:00:00Z");
            for (ZoneOffsetTransition transition = rules.nextTransition(cursor);
                    transition != null && transition.getInstant().isBefore(Instant.parse("2040-01-01T00:00:00Z"));
                    transition = rules.nextTransition(transition.getInstant())) {
                LocalDateTime before = transition.getDateTimeBefore();
                LocalDateTime after = transition.getDateTimeAfter();
                LocalDateTime earlier = before.isBefore(after) ? before : after;
                for (LocalDateTime wallTime = earlier.minusMinutes(30);
                        !wallTime.isAfter(earlier.plus(transition.getDuration().abs()).plusMinutes(30));
                        wallTime = wallTime.plusMinutes(15)) {
                    Resolved resolved = DstResolver.resolve(wallTime, zone, SHIFT_FIRST).orElseThrow();
                    assertThat(resolved.instant()).as("%s %s", id, wallTime)
                            .isEqualTo(ZonedDateTime.ofLocal(wallTime, zone, null).toInstant());
                    checked++;
                }
            }
        }
        assertThat(checked).isGreaterThan(10_000);
    }

    @Test
    void wireNames() {
        assertThat(DstNote.GAP_SHIFTED.wireName()).isEqualTo("gap_shifted");
        assertThat(DstNote.OVERLAP_EARLIER.wireName()).isEqualTo("overlap_earlier");
        assertThat(DstNote.OVERLAP_LATER.wireName()).isEqualTo("overlap_later");
        assertThat(Gap.fromWireName("shift")).contains(Gap.SHIFT);
        assertThat(Gap.fromWireName("skip")).contains(Gap.SKIP);
        assertThat(Gap.fromWireName("SKIP")).isEmpty();
        assertThat(Overlap.fromWireName("first")).contains(Overlap.FIRST);
        assertThat(Overlap.fromWireName("last")).contains(Overlap.LAST);
        assertThat(Overlap.fromWireName("earlier")).isEmpty();
        assertThat(DstPolicy.DEFAULT).isEqualTo(new DstPolicy(Gap.SHIFT, Overlap.FIRST));
    }
}
