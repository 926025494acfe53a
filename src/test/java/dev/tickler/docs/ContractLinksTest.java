package dev.tickler.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The source points to docs/contract.md for the rules it keeps: every such link names a heading that exists there,
 * and nothing cites a specification document the repository does not hold.
 */
class ContractLinksTest {

    private static final Path CONTRACT = Path.of("docs/contract.md");
    private static final Pattern LINK = Pattern.compile("contract\\.md#([a-z0-9-]+)((?:, #[a-z0-9-]+)*)");
    private static final Pattern MORE = Pattern.compile("#([a-z0-9-]+)");

    @Test
    void everyLinkToTheContractNamesOneOfItsHeadings() throws IOException {
        Set<String> headings = Files.readAllLines(CONTRACT).stream()
                .filter(line -> line.startsWith("#"))
                .map(ContractLinksTest::anchor)
                .collect(Collectors.toSet());
        Map<String, Set<String>> broken = new TreeMap<>();
        int links = 0;
        for (Path file : sources()) {
            Matcher link = LINK.matcher(read(file));
            while (link.find()) {
                Set<String> anchors = new TreeSet<>(Set.of(link.group(1)));
                MORE.matcher(link.group(2)).results().forEach(more -> anchors.add(more.group(1)));
                for (String anchor : anchors) {
                    links++;
                    if (!headings.contains(anchor)) {
                        broken.computeIfAbsent(file.toString(), ignored -> new TreeSet<>()).add(anchor);
                    }
                }
            }
        }

        assertThat(links).isGreaterThan(50);
        assertThat(broken).isEmpty();
    }

    @Test
    void noSourceCitesTheSpecificationBySection() throws IOException {
        String citation = "SPEC " + "\u00a7";
        assertThat(sources()).filteredOn(file -> read(file).contains(citation)).isEmpty();
    }

    /** The anchor a Markdown renderer gives a heading: lower case, punctuation dropped, spaces as hyphens. */
    private static String anchor(String heading) {
        return heading.replaceFirst("^#+\\s*", "").toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9 -]", "")
                .replace(' ', '-');
    }

    /** Java sources and configuration; the migrations keep their text, which Flyway checksums. */
    private static Set<Path> sources() throws IOException {
        try (Stream<Path> files = Files.walk(Path.of("src"))) {
            return files.filter(file -> file.toString().endsWith(".java") || file.toString().endsWith(".properties"))
                    .collect(Collectors.toCollection(TreeSet::new));
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
