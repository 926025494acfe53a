package dev.tickler.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * Every example value of a secret setting that the project ships is on {@link SecretRules#PLACEHOLDERS}, so a value
 * copied from our own files never opens a production instance. Reads the files a reader copies from: the README,
 * docs/, deploy/, application.properties, the local stack and the CI scripts that drive it.
 */
class SecretPlaceholdersTest {

    private static final List<Path> SHIPPED = List.of(Path.of("README.md"), Path.of("docs"), Path.of("deploy"),
            Path.of("src/main/resources/application.properties"), Path.of("src/local"), Path.of(".ci"));

    private static final String SECRET_PROPERTIES = "tickler\\.(?:api\\.keys|api\\.operator-keys|push\\.tokens"
            + "|push\\.signing-secret|console\\.secret|tenants\\.\"[^\"]+\"\\.callback-secret)";
    private static final String SECRET_VARIABLES = "TICKLER_API_KEYS|TICKLER_API_OPERATOR_KEYS|PUSH_PATH_TOKEN"
            + "|TICKLER_PUSH_TOKENS|TICKLER_PUSH_SIGNING_SECRET|TICKLER_CONSOLE_SECRET|TICKLER_TENANTS__\\w+__CALLBACK_SECRET";

    /** Where a secret is written in these files; group 1 is the value (a list, or name=secret entries). */
    private static final List<Pattern> WRITTEN = List.of(
            // application.properties, -D options and docs: tickler.api.keys=…, %dev.tickler.api.keys=…
            Pattern.compile("(?:%[\\w-]+\\.)?" + SECRET_PROPERTIES + "[ \\t]*[=:][ \\t]*([^\\s#`'\"]+)"),
            // env files, shell and YAML maps: TICKLER_API_KEYS=…, PUSH_PATH_TOKEN: "…"
            Pattern.compile("\\b(?:" + SECRET_VARIABLES + ")[ \\t]*[=:][ \\t]*\"?([^\\s\"'`]+)"),
            // a container's env list: - name: TICKLER_API_KEYS / value: …
            Pattern.compile("name:[ \\t]*(?:" + SECRET_VARIABLES + ")[ \\t]*\\R[ \\t]*value:[ \\t]*\"?([^\\s\"]+)"),
            // curl examples: Authorization: Bearer …
            Pattern.compile("Bearer[ \\t]+([^\\s'\"\\\\]+)"),
            // the push path: /q/<token>/reminders
            Pattern.compile("/q/([A-Za-z0-9._~-]+)/reminders"),
            // a push subscription's body: "token": "…"
            Pattern.compile("\"token\":[ \\t]*\"([^\"]+)\""),
            // the local stack's own values: PUSH_TOKEN_VALUE = "…"
            Pattern.compile("\\w*(?:KEY|TOKEN|SECRET)_VALUE[ \\t]*=[ \\t]*\"([^\"]+)\""));

    /** Not a value but a stand-in for one: a variable, an expansion, an ellipsis, a description. */
    private static final Pattern NOT_A_VALUE = Pattern.compile(".*[$<>{}…*].*");

    @Test
    void everySecretWrittenInAShippedFileIsAPlaceholderTheApplicationRefuses() {
        Map<String, TreeSet<String>> filesByValue = examples();

        assertThat(filesByValue).as("the scan still finds the examples it is for")
                .containsKeys("change-me", "local-dev-key", "local-push-token");
        assertThat(filesByValue.keySet()).as("examples missing from SecretRules.PLACEHOLDERS (where: %s)",
                filesByValue).allSatisfy(value -> assertThat(SecretRules.isPlaceholder(value)).as(value).isTrue());
    }

    /** Each value written as a secret, lower case, with the files it is written in. */
    private static Map<String, TreeSet<String>> examples() {
        Map<String, TreeSet<String>> filesByValue = new TreeMap<>();
        for (Path file : files()) {
            String text = read(file);
            for (Pattern pattern : WRITTEN) {
                Matcher matcher = pattern.matcher(text);
                while (matcher.find()) {
                    for (String entry : matcher.group(1).split(",")) {
                        // name=secret: the secret is after the first '='
                        String value = entry.substring(entry.indexOf('=') + 1).strip();
                        if (!value.isEmpty() && !NOT_A_VALUE.matcher(value).matches()) {
                            filesByValue.computeIfAbsent(value.toLowerCase(Locale.ROOT), ignored -> new TreeSet<>())
                                    .add(file.toString());
                        }
                    }
                }
            }
        }
        return filesByValue;
    }

    private static List<Path> files() {
        return SHIPPED.stream().flatMap(root -> {
            try (Stream<Path> files = Files.walk(root)) {
                return files.filter(Files::isRegularFile).toList().stream();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }).toList();
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
