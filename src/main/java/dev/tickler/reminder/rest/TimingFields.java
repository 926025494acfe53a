package dev.tickler.reminder.rest;

/** The timing fields that creation and PATCH share, checked by {@link ValidTiming}. */
interface TimingFields {

    String fireAt();

    String localTime();

    String tz();

    String expiresAfter();
}
