package dev.tickler.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The README's Layout is the map and the rule: it names every package of src/main with one line each, from the bottom
 * layer up, and a package imports only packages listed before it. So the map cannot drift from the code, a new package
 * must be placed in it, and no import runs against the layering (which also rules out every cycle).
 */
class LayeringTest {

    private static final Path MAIN = Path.of("src", "main", "java", "dev", "tickler");
    private static final Pattern LAYOUT_LINE = Pattern.compile("^      ([a-z]+)/ ", Pattern.MULTILINE);
    private static final Pattern IMPORT = Pattern.compile("^import (?:static )?dev\\.tickler\\.([a-z]+)\\.",
            Pattern.MULTILINE);

    @Test
    void theReadmeNamesEveryPackageOnce() throws IOException {
        assertThat(layout()).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(packages());
    }

    @Test
    void noPackageImportsOneListedAfterIt() throws IOException {
        List<String> layout = layout();
        Map<String, TreeSet<String>> against = new TreeMap<>();
        for (String feature : packages()) {
            try (Stream<Path> files = Files.walk(MAIN.resolve(feature))) {
                for (Path file : files.filter(path -> path.toString().endsWith(".java")).toList()) {
                    Matcher imports = IMPORT.matcher(Files.readString(file));
                    while (imports.find()) {
                        String imported = imports.group(1);
                        if (!imported.equals(feature) && layout.indexOf(imported) > layout.indexOf(feature)) {
                            against.computeIfAbsent(feature + " -> " + imported, key -> new TreeSet<>())
                                    .add(file.getFileName().toString());
                        }
                    }
                }
            }
        }
        assertThat(against).as("imports against the README's layering").isEmpty();
    }

    private static List<String> layout() throws IOException {
        String readme = Files.readString(Path.of("README.md"));
        String block = readme.substring(readme.indexOf("## Layout"));
        List<String> names = new ArrayList<>();
        Matcher line = LAYOUT_LINE.matcher(block);
        while (line.find()) {
            names.add(line.group(1));
        }
        return names;
    }

    private static List<String> packages() throws IOException {
        try (Stream<Path> children = Files.list(MAIN)) {
            return children.filter(Files::isDirectory).map(path -> path.getFileName().toString()).sorted().toList();
        }
    }
}
