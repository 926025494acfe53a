package dev.tickler.schedule.recurrence;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.YearMonth;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.time.temporal.TemporalAdjusters;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;

import dev.tickler.schedule.recurrence.DstPolicy.Gap;
import dev.tickler.schedule.recurrence.DstPolicy.Overlap;

/**
 * Properties over random rules, zones (the hard ones weighted up), starts from 1990 to 2040 (most of them a few
 * days before one of the zone's transitions, at hours close to it) and both policies.
 */
class RecurrencePropertiesTest {

    private static final int OCCURRENCES = 60;
    private static final List<String> HARD_ZONES = List.of(
            "America/New_York", "Europe/Berlin", "Australia/Lord_Howe", "Pacific/Apia", "America/Santiago",
            "Asia/Tehran", "America/Nuuk", "Pacific/Kwajalein", "Antarctica/Casey", "Antarctica/Troll",
            "America/Havana", "Africa/Casablanca", "America/St_Johns", "Europe/Dublin", "UTC");
    private static final List<String> ALL_ZONES = ZoneId.getAvailableZoneIds().stream().sorted().toList();
    private static final Instant FROM = Instant.parse("1990-01-01T00:00:00Z");
    private static final Instant UNTIL = Instant.parse("2041-01-01T00:00:00Z");
    private static final Map<ZoneId, List<ZoneOffsetTransition>> TRANSITIONS = new ConcurrentHashMap<>();

    /** One generated schedule; its text is what a failing property reports. */
    record Case(String rrule, ZoneId zone, LocalDateTime start, DstPolicy policy) {

        Recurrence recurrence() {
            return recurrence(rrule);
        }

        Recurrence recurrence(String text) {
            return Recurrence.of(start, zone, RecurrenceRule.parse(text), policy);
        }

        @Override
        public String toString() {
            return rrule + " from " + start + " in " + zone + " gap=" + policy.gap().wireName()
                    + " overlap=" + policy.overlap().wireName();
        }
    }

    // ---- properties

    @Property(tries = 1000)
    void occurrencesAreNumberedStrictlyIncreasingAndHonestAboutDst(@ForAll("cases") Case schedule) {
        List<Occurrence> occurrences = schedule.recurrence().stream().limit(OCCURRENCES).toList();
        ZoneRules rules = schedule.zone().getRules();

        for (int i = 0; i < occurrences.size(); i++) {
            Occurrence occurrence = occurrences.get(i);
            assertThat(occurrence.number()).isEqualTo(i + 1);
            if (i > 0) {
                assertThat(occurrence.instant()).isAfter(occurrences.get(i - 1).instant());
            }
            assertThat(occurrence.wallTime()).isAfterOrEqualTo(schedule.start());
            assertThat(occurrence.local().toInstant()).isEqualTo(occurrence.instant());
            assertThat(occurrence.local().getZone()).isEqualTo(schedule.zone());
            // the rendered local time is a real one
            assertThat(rules.getValidOffsets(occurrence.local().toLocalDateTime()))
                    .contains(occurrence.local().getOffset());

            List<ZoneOffset> offsets = rules.getValidOffsets(occurrence.wallTime());
            LocalDateTime local = occurrence.local().toLocalDateTime();
            if (occurrence.note() == null) {
                assertThat(offsets).hasSize(1);
                assertThat(local).isEqualTo(occurrence.wallTime());
            } else if (occurrence.note() == DstNote.GAP_SHIFTED) {
                assertThat(offsets).isEmpty();
                assertThat(schedule.policy().gap()).isEqualTo(Gap.SHIFT);
                ZoneOffsetTransition gap = rules.getTransition(occurrence.wallTime());
                assertThat(local).isEqualTo(occurrence.wallTime().plus(gap.getDuration()));
            } else {
                assertThat(offsets).hasSize(2);
                assertThat(local).isEqualTo(occurrence.wallTime());
                boolean earlier = occurrence.note() == DstNote.OVERLAP_EARLIER;
                assertThat(schedule.policy().overlap()).isEqualTo(earlier ? Overlap.FIRST : Overlap.LAST);
                // the earlier instant is the one with the larger offset
                Comparator<ZoneOffset> bySeconds = Comparator.comparingInt(ZoneOffset::getTotalSeconds);
                assertThat(occurrence.local().getOffset()).isEqualTo(earlier
                        ? offsets.stream().max(bySeconds).orElseThrow()
                        : offsets.stream().min(bySeconds).orElseThrow());
            }
        }
        if (!occurrences.isEmpty() && DstResolver.resolve(schedule.start(), rules, schedule.policy()).isPresent()
                && !schedule.rrule().contains("UNTIL")) {
            assertThat(occurrences.get(0).wallTime()).isEqualTo(schedule.start());
        }
        RecurrenceRule rule = RecurrenceRule.parse(schedule.rrule());
        if (rule.count().isPresent()) {
            assertThat(occurrences.size()).isLessThanOrEqualTo(rule.count().getAsInt());
        }
    }

    @Property(tries = 300)
    void occurrencesAreTheEagerDefinition(@ForAll("cases") Case schedule) {
        int limit = 40;
        List<Occurrence> occurrences = schedule.recurrence().stream().limit(limit).toList();
        // the oracle sees every wall time that could resolve before the last occurrence found, within 20 years
        LocalDate lastDate = schedule.start().toLocalDate().plusYears(20);
        if (occurrences.size() == limit) {
            LocalDate needed = LocalDate.ofInstant(occurrences.get(limit - 1).instant(), ZoneOffset.UTC).plusDays(2);
            lastDate = needed.isBefore(lastDate) ? needed : lastDate;
        }
        // wall times after lastDate resolve to instants after this: the oracle is complete before it
        Instant complete = lastDate.plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant().minus(18, ChronoUnit.HOURS);

        assertThat(before(occurrences, complete)).isEqualTo(before(eager(schedule, lastDate, limit), complete));
    }

    private static List<Occurrence> before(List<Occurrence> occurrences, Instant end) {
        return occurrences.stream().filter(occurrence -> occurrence.instant().isBefore(end)).toList();
    }

    @Property(tries = 300)
    void resumingAfterAnyOccurrenceGivesWhatIterationFromTheStartGives(@ForAll("cases") Case schedule) {
        Recurrence recurrence = schedule.recurrence();
        List<Occurrence> occurrences = recurrence.stream().limit(OCCURRENCES).toList();

        for (Occurrence occurrence : occurrences) {
            int done = occurrence.number();
            int end = Math.min(done + 10, occurrences.size());
            assertThat(recurrence.after(done, occurrence.wallTime()).limit(end - done).toList())
                    .as("after %s", occurrence)
                    .isEqualTo(occurrences.subList(done, end));
        }
    }

    @Property(tries = 300)
    void fromAnInstantIsTheTailOfTheOccurrences(@ForAll("cases") Case schedule,
            @ForAll @IntRange(min = 0, max = 29) int index) {
        Recurrence recurrence = schedule.recurrence();
        List<Occurrence> occurrences = recurrence.stream().limit(30).toList();
        if (index >= occurrences.size()) {
            return;
        }
        Instant instant = occurrences.get(index).instant();

        assertThat(recurrence.from(instant).limit(occurrences.size() - index).toList())
                .isEqualTo(occurrences.subList(index, occurrences.size()));
        // instants are whole seconds and strictly increase
        assertThat(recurrence.from(instant.plusSeconds(1)).limit(occurrences.size() - index - 1).toList())
                .isEqualTo(occurrences.subList(index + 1, occurrences.size()));
    }

    @Property(tries = 300)
    void countTakesThatManyOccurrencesOfTheUnboundedRule(@ForAll("unboundedCases") Case schedule,
            @ForAll @IntRange(min = 1, max = 60) int count) {
        List<Occurrence> unbounded = schedule.recurrence().stream().limit(count).toList();
        List<Occurrence> counted = schedule.recurrence(schedule.rrule() + ";COUNT=" + count).stream()
                .limit(count + 1).toList();

        // exactly COUNT unless the rule runs out first
        assertThat(counted).isEqualTo(unbounded);
    }

    @Property(tries = 300)
    void untilKeepsTheOccurrencesOfTheUnboundedRuleWithinIt(@ForAll("unboundedCases") Case schedule,
            @ForAll @IntRange(min = 0, max = 400) int days, @ForAll @IntRange(min = 0, max = 2) int form) {
        LocalDateTime bound = schedule.start().plusDays(days).plusMinutes(days * 37L % 1440);
        String until = switch (form) {
            case 0 -> bound.toLocalDate().toString().replace("-", "");
            case 1 -> bound.toString().replace("-", "").replace(":", "") + (bound.getSecond() == 0 ? "00" : "");
            default -> bound.toString().replace("-", "").replace(":", "") + (bound.getSecond() == 0 ? "00" : "") + "Z";
        };
        RecurrenceRule bounded = RecurrenceRule.parse(schedule.rrule() + ";UNTIL=" + until);
        Until limit = bounded.until().orElseThrow();
        Instant beyond = (limit.lastInstant() != null ? limit.lastInstant()
                : limit.lastWallTime().toInstant(ZoneOffset.UTC).plus(19, ChronoUnit.HOURS));

        List<LocalDateTime> expected = schedule.recurrence().stream()
                .takeWhile(occurrence -> !occurrence.instant().isAfter(beyond))
                .filter(occurrence -> limit.lastWallTime() == null
                        || !occurrence.wallTime().isAfter(limit.lastWallTime()))
                .filter(occurrence -> limit.lastInstant() == null
                        || !occurrence.instant().isAfter(limit.lastInstant()))
                .map(Occurrence::wallTime)
                .toList();

        assertThat(schedule.recurrence(bounded.toString()).stream().map(Occurrence::wallTime).toList())
                .isEqualTo(expected);
    }

    @Property(tries = 500)
    void theCanonicalTextParsesToAnEqualRule(@ForAll("cases") Case schedule) {
        RecurrenceRule rule = RecurrenceRule.parse(schedule.rrule());

        assertThat(RecurrenceRule.parse(rule.toString())).isEqualTo(rule).hasToString(rule.toString());
        assertThat(RecurrenceRule.parse("RRULE:" + schedule.rrule().toLowerCase())).isEqualTo(rule);
    }

    // ---- the eager definition: every candidate of a date range, resolved, sorted by instant, deduplicated

    private static List<Occurrence> eager(Case schedule, LocalDate lastDate, int limit) {
        RecurrenceRule rule = RecurrenceRule.parse(schedule.rrule());
        ZoneRules rules = schedule.zone().getRules();
        Until until = rule.until().orElse(null);
        int count = rule.count().orElse(Integer.MAX_VALUE);
        LocalDate end = lastDate.isAfter(Recurrence.LATEST.toLocalDate()) ? Recurrence.LATEST.toLocalDate() : lastDate;

        record Candidate(LocalDateTime wallTime, DstResolver.Resolved resolved) {
        }
        List<Candidate> candidates = new ArrayList<>();
        for (LocalDate date = schedule.start().toLocalDate(); !date.isAfter(end); date = date.plusDays(1)) {
            if (!selects(rule, schedule.start(), date)) {
                continue;
            }
            for (LocalTime time : times(rule, schedule.start().toLocalTime())) {
                LocalDateTime wallTime = date.atTime(time);
                if (wallTime.isAfter(schedule.start())) {
                    DstResolver.resolve(wallTime, rules, schedule.policy())
                            .ifPresent(resolved -> candidates.add(new Candidate(wallTime, resolved)));
                }
            }
        }
        candidates.sort(Comparator.comparing((Candidate candidate) -> candidate.resolved().instant())
                .thenComparing(Candidate::wallTime));
        DstResolver.resolve(schedule.start(), rules, schedule.policy())
                .ifPresent(resolved -> candidates.add(0, new Candidate(schedule.start(), resolved)));

        List<Occurrence> occurrences = new ArrayList<>();
        Instant previous = null;
        for (Candidate candidate : candidates) {
            Instant instant = candidate.resolved().instant();
            boolean withinUntil = until == null
                    || (until.lastWallTime() == null || !candidate.wallTime().isAfter(until.lastWallTime()))
                    && (until.lastInstant() == null || !instant.isAfter(until.lastInstant()));
            if (!withinUntil || previous != null && !instant.isAfter(previous)) {
                continue;
            }
            previous = instant;
            occurrences.add(new Occurrence(occurrences.size() + 1, candidate.wallTime(), instant,
                    instant.atZone(schedule.zone()), candidate.resolved().note()));
            if (occurrences.size() == Math.min(count, limit)) {
                break;
            }
        }
        return occurrences;
    }

    /** Whether the rule selects the date, decided the slow, obvious way. */
    private static boolean selects(RecurrenceRule rule, LocalDateTime start, LocalDate date) {
        long periods = switch (rule.frequency()) {
            case DAILY -> ChronoUnit.DAYS.between(start.toLocalDate(), date);
            case WEEKLY -> ChronoUnit.DAYS.between(
                    start.toLocalDate().with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY)),
                    date.with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY))) / 7;
            case MONTHLY -> (date.getYear() - start.getYear()) * 12L + date.getMonthValue() - start.getMonthValue();
        };
        if (periods % rule.interval() != 0) {
            return false;
        }
        boolean monthDay = rule.byMonthDay().isEmpty() || rule.byMonthDay().stream().anyMatch(day -> day > 0
                ? date.getDayOfMonth() == day
                : date.getDayOfMonth() == date.lengthOfMonth() + 1 + day);
        boolean weekday = rule.byDay().isEmpty() || rule.byDay().stream().anyMatch(day -> {
            if (day.day() != date.getDayOfWeek()) {
                return false;
            }
            List<Integer> same = IntStream.rangeClosed(1, date.lengthOfMonth())
                    .filter(d -> YearMonth.from(date).atDay(d).getDayOfWeek() == day.day()).boxed().toList();
            int nth = same.indexOf(date.getDayOfMonth()) + 1;
            return day.ordinal() == 0 || day.ordinal() == nth || day.ordinal() == nth - same.size() - 1;
        });
        return switch (rule.frequency()) {
            case DAILY -> weekday && monthDay;
            case WEEKLY -> rule.byDay().isEmpty() ? date.getDayOfWeek() == start.getDayOfWeek() : weekday;
            case MONTHLY -> rule.byDay().isEmpty() && rule.byMonthDay().isEmpty()
                    ? date.getDayOfMonth() == start.getDayOfMonth()
                    : weekday && monthDay;
        };
    }

    private static List<LocalTime> times(RecurrenceRule rule, LocalTime start) {
        List<Integer> hours = rule.byHour().isEmpty() ? List.of(start.getHour()) : rule.byHour();
        List<Integer> minutes = rule.byMinute().isEmpty() ? List.of(start.getMinute()) : rule.byMinute();
        return hours.stream().flatMap(hour -> minutes.stream()
                .map(minute -> LocalTime.of(hour, minute, start.getSecond()))).sorted().toList();
    }

    // ---- generators

    @Provide
    Arbitrary<Case> cases() {
        return cases(true);
    }

    @Provide
    Arbitrary<Case> unboundedCases() {
        return cases(false);
    }

    private Arbitrary<Case> cases(boolean bounds) {
        return Arbitraries.frequencyOf(Tuple.of(1, anyCases(bounds)), Tuple.of(1, transitionCases(bounds)));
    }

    /** Any rule, in any zone, mostly starting shortly before one of the zone's transitions. */
    private Arbitrary<Case> anyCases(boolean bounds) {
        Arbitrary<ZoneId> zones = Arbitraries.frequencyOf(
                Tuple.of(2, Arbitraries.of(HARD_ZONES)),
                Tuple.of(1, Arbitraries.of(ALL_ZONES))).map(ZoneId::of);
        // plain combinations, no flatMap: arbitraries built per sample would make generation the slow part
        return Combinators.combine(zones, starts(), rules(bounds), Arbitraries.of(Occurrences.ALL_POLICIES))
                .as((zone, start, rule, policy) -> {
                    LocalDateTime wallTime = start.in(zone);
                    return new Case(rule.text(wallTime), zone, wallTime, policy);
                });
    }

    /** Simple rules that select a transition's day, at about its hour, from shortly before it. */
    private Arbitrary<Case> transitionCases(boolean bounds) {
        Arbitrary<ZoneId> zones = Arbitraries.frequencyOf(
                Tuple.of(2, Arbitraries.of(HARD_ZONES)),
                Tuple.of(1, Arbitraries.of(ALL_ZONES))).map(ZoneId::of)
                .filter(zone -> !TRANSITIONS.computeIfAbsent(zone, RecurrencePropertiesTest::transitions).isEmpty());
        Arbitrary<TransitionRule> rules = Combinators.combine(
                Arbitraries.of(TransitionRule.Shape.values()), Arbitraries.integers().between(0, 3), minutes(),
                Arbitraries.frequencyOf(Tuple.of(4, Arbitraries.just(0)), Tuple.of(1, Arbitraries.integers().between(0, 59))),
                sometimes(Arbitraries.integers().between(-1, 1).set().ofMinSize(1), Set.of(), 2, 1),
                sometimes(minutes().set().ofMinSize(1).ofMaxSize(3), Set.of(), 1, 1),
                bounds ? Arbitraries.frequencyOf(Tuple.of(2, Arbitraries.just(0)), Tuple.of(1, Arbitraries.integers().between(1, 70)))
                        : Arbitraries.just(0))
                .as(TransitionRule::new);
        return Combinators.combine(zones, Arbitraries.doubles().between(0, 1).filter(which -> which < 1), rules,
                Arbitraries.of(Occurrences.ALL_POLICIES))
                .as((zone, which, rule, policy) -> {
                    List<ZoneOffsetTransition> transitions = TRANSITIONS.get(zone);
                    ZoneOffsetTransition transition = transitions.get((int) (which * transitions.size()));
                    LocalDateTime edge = transition.isGap() ? transition.getDateTimeBefore() : transition.getDateTimeAfter();
                    LocalDateTime start = edge.toLocalDate().minusDays(rule.daysBefore())
                            .atTime(edge.getHour(), rule.minute(), rule.second());
                    return new Case(rule.text(edge), zone, start, policy);
                });
    }

    /** A rule of some shape that selects the day of {@code edge}; BYHOUR is given as offsets from its hour. */
    private record TransitionRule(Shape shape, int daysBefore, int minute, int second, Set<Integer> hourOffsets,
            Set<Integer> byMinute, int count) {

        enum Shape { DAILY, WEEKLY, MONTHLY_DAY, MONTHLY_NTH_WEEKDAY, MONTHLY_LAST_WEEKDAY }

        String text(LocalDateTime edge) {
            LocalDate day = edge.toLocalDate();
            String weekday = day.getDayOfWeek().name().substring(0, 2);
            StringJoiner rule = new StringJoiner(";");
            rule.add(switch (shape) {
                case DAILY -> "FREQ=DAILY";
                case WEEKLY -> "FREQ=WEEKLY;BYDAY=" + weekday;
                case MONTHLY_DAY -> "FREQ=MONTHLY;BYMONTHDAY=" + day.getDayOfMonth();
                case MONTHLY_NTH_WEEKDAY -> "FREQ=MONTHLY;BYDAY=" + ((day.getDayOfMonth() - 1) / 7 + 1) + weekday;
                case MONTHLY_LAST_WEEKDAY ->
                        "FREQ=MONTHLY;BYDAY=" + -((day.lengthOfMonth() - day.getDayOfMonth()) / 7 + 1) + weekday;
            });
            addList(rule, "BYHOUR", hourOffsets.stream()
                    .map(offset -> Math.floorMod(edge.getHour() + offset, 24)).sorted().toList());
            addList(rule, "BYMINUTE", byMinute);
            if (count > 0) {
                rule.add("COUNT=" + count);
            }
            return rule.toString();
        }
    }

    /** Mostly a few days or weeks before one of the zone's transitions from 1990 to 2040, at about its hour. */
    private record Start(boolean nearTransition, double which, int daysBefore, int hours, int minute, int second,
            long epochDay, int hour) {

        LocalDateTime in(ZoneId zone) {
            List<ZoneOffsetTransition> transitions =
                    TRANSITIONS.computeIfAbsent(zone, RecurrencePropertiesTest::transitions);
            if (!nearTransition || transitions.isEmpty()) {
                return LocalDate.ofEpochDay(epochDay).atTime(hour, minute, second);
            }
            ZoneOffsetTransition transition = transitions.get((int) (which * transitions.size()));
            // the first wall time of the gap, or of the overlap
            LocalDateTime edge = transition.isGap() ? transition.getDateTimeBefore() : transition.getDateTimeAfter();
            return edge.minusDays(daysBefore).plusHours(hours).withMinute(minute).withSecond(second);
        }
    }

    private static Arbitrary<Start> starts() {
        return Combinators.combine(
                Arbitraries.frequencyOf(Tuple.of(4, Arbitraries.just(true)), Tuple.of(1, Arbitraries.just(false))),
                Arbitraries.doubles().between(0, 1).filter(which -> which < 1),
                Arbitraries.of(0, 1, 2, 3, 7, 14, 28),
                Arbitraries.frequencyOf(Tuple.of(6, Arbitraries.just(0)), Tuple.of(1, Arbitraries.integers().between(-3, 3))),
                minutes(),
                Arbitraries.frequencyOf(Tuple.of(4, Arbitraries.just(0)), Tuple.of(1, Arbitraries.integers().between(0, 59))),
                Arbitraries.longs().between(LocalDate.of(1990, 1, 1).toEpochDay(), LocalDate.of(2040, 12, 31).toEpochDay()),
                Arbitraries.integers().between(0, 23))
                .as(Start::new);
    }

    private static List<ZoneOffsetTransition> transitions(ZoneId zone) {
        ZoneRules rules = zone.getRules();
        List<ZoneOffsetTransition> transitions = new ArrayList<>();
        for (ZoneOffsetTransition transition = rules.nextTransition(FROM);
                transition != null && transition.getInstant().isBefore(UNTIL);
                transition = rules.nextTransition(transition.getInstant())) {
            transitions.add(transition);
        }
        return transitions;
    }

    private static Arbitrary<Integer> minutes() {
        return Arbitraries.frequencyOf(
                Tuple.of(3, Arbitraries.of(0, 15, 30, 45)), Tuple.of(1, Arbitraries.integers().between(0, 59)));
    }

    /** A rule to be written out for a given start: BYHOUR values of 99..101 stand for the start's hour -1..+1. */
    private record Rule(Frequency frequency, int interval, List<String> byDay, Set<Integer> byMonthDay,
            Set<Integer> byHour, Set<Integer> byMinute, int count, int untilDays) {

        String text(LocalDateTime start) {
            StringJoiner rule = new StringJoiner(";");
            rule.add("FREQ=" + frequency);
            if (interval > 1) {
                rule.add("INTERVAL=" + interval);
            }
            addList(rule, "BYDAY", frequency == Frequency.MONTHLY ? byDay
                    : byDay.stream().map(day -> day.replaceAll("[-0-9]", "")).distinct().toList());
            if (frequency != Frequency.WEEKLY) {
                addList(rule, "BYMONTHDAY", byMonthDay);
            }
            addList(rule, "BYHOUR", byHour.stream()
                    .map(hour -> hour >= 99 ? Math.floorMod(start.getHour() + hour - 100, 24) : hour)
                    .distinct().toList());
            addList(rule, "BYMINUTE", byMinute);
            if (count > 0) {
                rule.add("COUNT=" + count);
            } else if (untilDays >= 0) {
                rule.add("UNTIL=" + start.plusDays(untilDays).toString().replace("-", "").replace(":", "")
                        .substring(0, 13) + "00" + (untilDays % 2 == 0 ? "Z" : ""));
            }
            return rule.toString();
        }
    }

    private static Arbitrary<Rule> rules(boolean bounds) {
        // filters are often left out, so that the days around a transition are selected often enough
        Arbitrary<List<String>> byDay = sometimes(Combinators.combine(
                Arbitraries.of(DayOfWeek.values()), Arbitraries.of(0, 0, 0, 1, 2, 3, 4, 5, -1, -2, -5))
                .as((day, ordinal) -> (ordinal == 0 ? "" : ordinal.toString()) + day.name().substring(0, 2))
                .set().ofMinSize(1).ofMaxSize(3).map(List::copyOf), List.of(), 2, 3);
        Arbitrary<Set<Integer>> byMonthDay = sometimes(Arbitraries.frequencyOf(
                Tuple.of(3, Arbitraries.of(1, 15, 28, 29, 30, 31, -1, -2, -7)),
                Tuple.of(1, Arbitraries.integers().between(-31, 31).filter(day -> day != 0)))
                .set().ofMinSize(1).ofMaxSize(3), Set.of(), 1, 3);
        Arbitrary<Set<Integer>> byHour = sometimes(Arbitraries.frequencyOf(
                Tuple.of(3, Arbitraries.of(99, 100, 101)),
                Tuple.of(1, Arbitraries.integers().between(0, 23))).set().ofMinSize(1).ofMaxSize(3), Set.of(), 2, 1);
        // COUNT (1..70), else UNTIL (0..800 days after the start), else neither
        Arbitrary<Integer> count = bounds
                ? Arbitraries.frequencyOf(Tuple.of(3, Arbitraries.just(0)), Tuple.of(2, Arbitraries.integers().between(1, 70)))
                : Arbitraries.just(0);
        Arbitrary<Integer> untilDays = bounds
                ? Arbitraries.frequencyOf(Tuple.of(3, Arbitraries.just(-1)), Tuple.of(1, Arbitraries.integers().between(0, 800)))
                : Arbitraries.just(-1);
        return Combinators.combine(
                Arbitraries.of(Frequency.DAILY, Frequency.DAILY, Frequency.WEEKLY, Frequency.MONTHLY),
                Arbitraries.frequencyOf(Tuple.of(3, Arbitraries.just(1)), Tuple.of(2, Arbitraries.integers().between(2, 4))),
                byDay, byMonthDay, byHour,
                minutes().set().ofMaxSize(3), count, untilDays)
                .as(Rule::new);
    }

    private static <T> Arbitrary<T> sometimes(Arbitrary<T> values, T none, int weight, int noneWeight) {
        return Arbitraries.frequencyOf(Tuple.of(weight, values), Tuple.of(noneWeight, Arbitraries.just(none)));
    }

    private static void addList(StringJoiner rule, String name, Collection<?> values) {
        if (!values.isEmpty()) {
            rule.add(name + "=" + String.join(",", values.stream().map(Object::toString).toList()));
        }
    }
}
