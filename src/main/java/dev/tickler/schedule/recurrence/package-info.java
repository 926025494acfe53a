/**
 * Recurring schedules: an RRULE subset ({@link dev.tickler.schedule.recurrence.RecurrenceRule}) evaluated in local
 * time in a zone from a start ({@link dev.tickler.schedule.recurrence.Recurrence}), with an explicit per-schedule
 * policy for DST gaps and overlaps ({@link dev.tickler.schedule.recurrence.DstPolicy},
 * {@link dev.tickler.schedule.recurrence.DstResolver}).
 *
 * <p>Our own expansion rather than an iCalendar library, because libraries resolve DST each their own way. Where
 * RFC 5545 and the product contract leave room, this package decides:
 * <ul>
 * <li>the start is occurrence 1 whenever it exists under the policy, even if the rule does not select it, but
 * UNTIL applies to it like to any other occurrence (an UNTIL before the start leaves no occurrence at all);
 * <li>occurrences come in order of instant, not of wall time: a wall time shifted out of a gap can come after a
 * later wall time; of two wall times resolving to the same instant the earlier one is kept and the other is
 * neither an occurrence nor counted;
 * <li>UNTIL without Z is compared with the rule's wall time, not with the shifted local time;
 * <li>the expansion ends after year 9999-12-30, at occurrence number {@link java.lang.Integer#MAX_VALUE}, or after
 * 4800 examined periods in a row without a selected date (a rule that can never match again).
 * </ul>
 */
package dev.tickler.schedule.recurrence;
