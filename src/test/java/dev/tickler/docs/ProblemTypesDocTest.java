package dev.tickler.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.tickler.problem.ProblemType;

/**
 * docs/api.md's table of problem types is the client's reference to branch on: it has a row for every type Tickler
 * answers with, giving the type, status and title the answers carry.
 */
class ProblemTypesDocTest {

    @Test
    void everyProblemTypeHasItsRowWithItsStatusAndTitle() throws IOException {
        List<String> rows = Files.readAllLines(Path.of("docs/api.md")).stream()
                .filter(line -> line.startsWith("| `")).toList();

        assertThat(Arrays.stream(ProblemType.values())
                .map(type -> "| `" + type.slug() + "` | " + type.status() + " | " + type.title() + " |"))
                .allSatisfy(row -> assertThat(rows).anySatisfy(line -> assertThat(line).startsWith(row)));
    }
}
