package dev.tickler.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import dev.tickler.timeline.EventType;
import dev.tickler.timeline.TimelineSql.Event;

/**
 * No terminal transition can forget its callback (docs/api.md, "Delivery callbacks"): every statement of the ledger
 * that records a sent, failed, expired or skipped event is made by {@link CallbackOutbox#finishing}, which writes the
 * outbox for the tenants with callbacks, and no statement made without it records one. A new terminal write added as
 * a constant, the way the others were before callbacks, fails here.
 */
class TerminalWritesTest {

    /** How {@code TimelineSql.recording} writes an event's type into the statement. */
    private static final Pattern TERMINAL_EVENT = Pattern.compile("::timestamptz, '(sent|failed|expired|skipped)', ");

    @Test
    void noStatementMadeWithoutTheOutboxRecordsATerminalEvent() throws IllegalAccessException {
        List<String> found = new ArrayList<>();
        for (Field field : ReminderLedger.class.getDeclaredFields()) {
            if (Modifier.isStatic(field.getModifiers())
                    && (field.getType() == String.class || field.getType() == dev.tickler.db.NamedSql.class)) {
                field.setAccessible(true);
                String sql = String.valueOf(field.get(null));
                if (TERMINAL_EVENT.matcher(sql).find()) {
                    found.add(field.getName());
                }
            }
        }

        assertThat(found).as("constant statements that end reminders without writing their callbacks").isEmpty();
    }

    @Test
    void everyStatementMadeWithTheOutboxRecordsOneTerminalEventAndWritesItsCallbackOnlyWhenATenantHasOne()
            throws ReflectiveOperationException {
        List<String> terminalWrites = new ArrayList<>();
        for (Method method : ReminderLedger.class.getDeclaredMethods()) {
            if (!Modifier.isStatic(method.getModifiers()) || method.getParameterCount() != 1
                    || method.getParameterTypes()[0] != CallbackOutbox.class) {
                continue;
            }
            method.setAccessible(true);
            String withCallbacks = String.valueOf(method.invoke(null, CallbackOutbox.of(List.of("checkout"))));
            String without = String.valueOf(method.invoke(null, CallbackOutbox.of(List.of())));
            terminalWrites.add(method.getName());

            Matcher terminal = TERMINAL_EVENT.matcher(withCallbacks);
            assertThat(terminal.find()).as(method.getName()).isTrue();
            assertThat(terminal.find()).as(method.getName() + ": a second terminal event").isFalse();
            assertThat(withCallbacks).as(method.getName()).contains("INSERT INTO callback_events")
                    .contains("tenant IN ('checkout')");
            assertThat(without).as(method.getName()).doesNotContain("callback_events");
        }

        assertThat(terminalWrites).containsExactlyInAnyOrder("settleSent", "settleFailed", "expireHeld", "skipHeld",
                "skipAtHandOff", "expireAtHandOff", "giveUp", "expireWaiting", "createSkippedOccurrences");
    }

    @Test
    void theOutboxRefusesAStatementWithoutExactlyOneTerminalEvent() {
        CallbackOutbox outbox = CallbackOutbox.of(List.of("checkout"));

        assertThatThrownBy(() -> outbox.finishing("UPDATE reminders SET updated_at = now()", "id",
                Event.of(":now", EventType.DEFERRED))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> outbox.finishing("UPDATE reminders SET updated_at = now()", "id",
                Event.of(":now", EventType.SENT), Event.of(":now", EventType.FAILED)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CallbackOutbox.of(List.of("check'out"))).isInstanceOf(IllegalArgumentException.class);
    }
}
