package dev.tickler.schedule.recurrence;

/** How an occurrence's wall time was resolved around a DST transition; {@code null} means it was unambiguous. */
public enum DstNote {
    GAP_SHIFTED("gap_shifted"),
    OVERLAP_EARLIER("overlap_earlier"),
    OVERLAP_LATER("overlap_later");

    private final String wireName;

    DstNote(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }
}
