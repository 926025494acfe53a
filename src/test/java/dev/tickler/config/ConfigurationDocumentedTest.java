package dev.tickler.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.smallrye.config.WithName;

/** Every key of our configuration is in docs/configuration.md, so that a new one cannot ship undocumented. */
class ConfigurationDocumentedTest {

    @Test
    void everyKeyIsDocumented() throws IOException {
        String documented = Files.readString(Path.of("docs/configuration.md"));
        List<String> keys = keysOf(TicklerConfig.class, "tickler");

        assertThat(keys).contains("tickler.delivery.claim-linger", "tickler.notify.rate-limit");
        assertThat(keys).allSatisfy(key -> assertThat(documented).as("docs/configuration.md names " + key)
                .contains("`" + key + "`"));
    }

    /** The keys under {@code prefix} of a mapping's group; a map of groups (per tenant) is documented by its pattern. */
    private static List<String> keysOf(Class<?> group, String prefix) {
        List<String> keys = new ArrayList<>();
        for (Method method : group.getDeclaredMethods()) {
            if (method.isDefault() || Modifier.isStatic(method.getModifiers())) {
                continue;
            }
            WithName named = method.getAnnotation(WithName.class);
            String key = prefix + "." + (named != null ? named.value() : kebab(method.getName()));
            Class<?> type = method.getReturnType();
            if (type.isInterface() && type.getEnclosingClass() == TicklerConfig.class) {
                keys.addAll(keysOf(type, key));
            } else if (!Map.class.isAssignableFrom(type)) {
                keys.add(key);
            }
        }
        return keys;
    }

    private static String kebab(String name) {
        return name.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase();
    }
}
