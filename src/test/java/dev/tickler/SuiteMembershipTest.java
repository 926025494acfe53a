package dev.tickler;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.junit.main.QuarkusMainTest;

/**
 * A class with an application of its own left in {@link SharedApplicationSuite} would make that suite's JVM build
 * and start Quarkus again; one named in {@link OwnApplicationsSuite} without one would wait there for no reason.
 */
class SuiteMembershipTest {

    /** As the class files spell the two annotations; a class is read, never loaded (loading builds its profile). */
    private static final List<String> OWN_APPLICATION_ANNOTATIONS = List.of(
            "L" + TestProfile.class.getName().replace('.', '/') + ";",
            "L" + QuarkusMainTest.class.getName().replace('.', '/') + ";");

    @Test
    void theOwnApplicationsSuiteNamesExactlyTheClassesWithAnApplicationOfTheirOwn() throws IOException {
        Map<String, Boolean> ownApplicationByClass = testClasses();

        assertThat(ownApplicationByClass).hasSizeGreaterThan(50);
        assertThat(ownApplicationByClass.entrySet()).filteredOn(entry -> entry.getValue() != entry.getKey()
                .matches(OwnApplicationsSuite.CLASSES)).as("classes in the wrong suite (true: own application)")
                .isEmpty();
    }

    /** Every compiled class whose name ends in Test, and whether it carries one of the annotations. */
    private static Map<String, Boolean> testClasses() throws IOException {
        Path root = Path.of("target", "test-classes");
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(file -> file.getFileName().toString().endsWith("Test.class")
                            && !file.getFileName().toString().contains("$"))
                    .collect(Collectors.toMap(file -> className(root, file), SuiteMembershipTest::hasOwnApplication));
        }
    }

    private static String className(Path root, Path file) {
        String name = root.relativize(file).toString();
        return name.substring(0, name.length() - ".class".length()).replace('/', '.');
    }

    private static boolean hasOwnApplication(Path classFile) {
        try {
            String constants = new String(Files.readAllBytes(classFile), StandardCharsets.ISO_8859_1);
            return OWN_APPLICATION_ANNOTATIONS.stream().anyMatch(constants::contains);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
