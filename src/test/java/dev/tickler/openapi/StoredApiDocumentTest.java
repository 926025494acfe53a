package dev.tickler.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkus.test.junit.QuarkusTest;

/**
 * docs/openapi.json is the API's published contract, from which clients are generated (the tests' own among them):
 * it must be exactly the document the application builds. A change to the API changes the built document, and this
 * test fails until the stored one is updated with it, on purpose, by the command it prints.
 */
@QuarkusTest
class StoredApiDocumentTest {

    static final Path STORED = Path.of("docs", "openapi.json");
    private static final Path BUILT = Path.of("target", "openapi", "openapi.json");
    /** Set (-Dapi-document.update) to write the built document to docs/openapi.json instead of comparing. */
    private static final String UPDATE = "api-document.update";
    private static final String COMMAND = "mvn -B -ntp test -Dtest=StoredApiDocumentTest -D" + UPDATE;
    private static final int SHOWN = 20;
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void theStoredDocumentIsTheOneTheApplicationBuilds() throws IOException {
        assertThat(BUILT).as("quarkus.smallrye-openapi.store-schema-directory").exists();
        String built = Files.readString(BUILT);
        if (Boolean.getBoolean(UPDATE)) {
            Files.writeString(STORED, built.endsWith("\n") ? built : built + "\n");
        }
        assertThat(STORED).as("the stored API document; write it with: " + COMMAND).exists();

        List<String> drift = new ArrayList<>();
        differences("", JSON.readTree(Files.readString(STORED)), JSON.readTree(built), drift);

        assertThat(drift).as("docs/openapi.json is not the document this build produces (first %d differences,"
                + " JSON pointers). If the API change is meant, update it and commit it with the change:%n  %s%n",
                SHOWN, COMMAND).isEmpty();
    }

    /** Where the two trees differ, as JSON pointers with both values, at most {@link #SHOWN} of them. */
    private static void differences(String at, JsonNode stored, JsonNode built, List<String> drift) {
        if (drift.size() >= SHOWN || stored.equals(built)) {
            return;
        }
        if (stored.isObject() && built.isObject()) {
            TreeSet<String> names = new TreeSet<>(names(stored));
            names.addAll(names(built));
            for (String name : names) {
                differences(at + "/" + name.replace("~", "~0").replace("/", "~1"), stored.path(name),
                        built.path(name), drift);
            }
        } else if (stored.isArray() && built.isArray() && stored.size() == built.size()) {
            for (int i = 0; i < stored.size(); i++) {
                differences(at + "/" + i, stored.get(i), built.get(i), drift);
            }
        } else {
            drift.add(at + ": stored " + brief(stored) + ", built " + brief(built));
        }
    }

    private static List<String> names(JsonNode node) {
        List<String> names = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> fields = node.fields(); fields.hasNext();) {
            names.add(fields.next().getKey());
        }
        return names;
    }

    private static String brief(JsonNode node) {
        String text = node.isMissingNode() ? "(none)" : node.toString();
        return text.length() > 160 ? text.substring(0, 160) + "…" : text;
    }
}
