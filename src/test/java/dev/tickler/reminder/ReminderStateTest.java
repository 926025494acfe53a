package dev.tickler.reminder;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import dev.tickler.ledger.ReminderState;

/** State names reach SQL through the enum only, so a statement can never name a state the code does not know. */
class ReminderStateTest {

    @Test
    void eachStateIsWrittenInSqlAsItsQuotedWireName() {
        assertThat(ReminderState.HANDED_OFF.sql()).isEqualTo("'handed_off'");
        assertThat(ReminderState.SKIPPED.sql()).isEqualTo("'skipped'");
        for (ReminderState state : ReminderState.values()) {
            assertThat(state.sql()).isEqualTo("'" + state.wireName() + "'");
        }
    }

    @Test
    void statesFormAnSqlListInTheOrderGiven() {
        assertThat(ReminderState.sqlList(ReminderState.PENDING, ReminderState.HANDED_OFF))
                .isEqualTo("('pending', 'handed_off')");
        assertThat(ReminderState.sqlList(ReminderState.FAILED)).isEqualTo("('failed')");
    }

    @Test
    void noMainSourceButTheEnumSpellsAStateAsAnSqlLiteral() throws IOException {
        String names = Arrays.stream(ReminderState.values()).map(ReminderState::wireName)
                .collect(Collectors.joining("|"));
        Pattern literal = Pattern.compile("'(" + names + ")'");
        List<String> offenders;
        try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
            offenders = files.filter(file -> file.toString().endsWith(".java"))
                    .filter(file -> !file.endsWith(Path.of("ledger", "ReminderState.java")))
                    .filter(file -> literal.matcher(read(file)).find())
                    .map(Path::toString)
                    .toList();
        }

        assertThat(offenders).isEmpty();
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
