package dev.tickler.quiethours;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.Set;

/**
 * One quiet window: on each of {@code days}, from {@code start} to {@code end} local time, for {@code channels}
 * (wire names). Times are minutes of the day; {@code end} may be 1440 (24:00). A window whose end is not after its
 * start wraps past midnight and belongs to the day it starts on.
 */
public record QuietWindow(Set<DayOfWeek> days, int startMinute, int endMinute, Set<String> channels) {

    public static final int MINUTES_A_DAY = 24 * 60;

    public QuietWindow {
        days = Set.copyOf(days);
        channels = Set.copyOf(channels);
        if (startMinute < 0 || startMinute >= MINUTES_A_DAY || endMinute < 0 || endMinute > MINUTES_A_DAY
                || startMinute == endMinute) {
            throw new IllegalArgumentException("a window runs from 00:00..23:59 to another time up to 24:00");
        }
    }

    public boolean wrapsPastMidnight() {
        return endMinute <= startMinute;
    }

    public boolean appliesTo(String channel) {
        return channels.contains(channel);
    }

    /**
     * Where the window that starts on {@code day} begins, under the registration API's rules for local times: a time
     * in a DST gap moves forward by the gap, a time in an overlap takes the earlier offset.
     */
    Instant startOn(LocalDate day, ZoneId zone) {
        return resolve(day, startMinute, zone);
    }

    /** Where the window that starts on {@code day} ends; the same rules, on the next day when it wraps. */
    Instant endOn(LocalDate day, ZoneId zone) {
        return resolve(wrapsPastMidnight() ? day.plusDays(1) : day, endMinute, zone);
    }

    private static Instant resolve(LocalDate day, int minute, ZoneId zone) {
        LocalDate date = minute == MINUTES_A_DAY ? day.plusDays(1) : day;
        LocalTime time = LocalTime.of(minute % MINUTES_A_DAY / 60, minute % 60);
        // ZonedDateTime.of: a gap moves the time forward by the gap's length, an overlap takes the earlier offset
        return ZonedDateTime.of(date, time, zone).toInstant();
    }

    /** "HH:mm" of a minute of the day, 24:00 for the end of the day. */
    public static String clock(int minute) {
        return String.format("%02d:%02d", minute / 60, minute % 60);
    }
}
