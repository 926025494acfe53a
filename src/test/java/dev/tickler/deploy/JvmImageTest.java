package dev.tickler.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/** The JVM image runs what the build trained, with the flags the benchmarks measured. */
class JvmImageTest {

    private static final Path DOCKERFILE = Path.of("src", "main", "docker", "Dockerfile.jvm");

    @Test
    void theImageStartsWithTheFlagsTheBenchmarksUse() throws IOException {
        Matcher flags = Pattern.compile("(?m)^ENV JAVA_FLAGS=\"([^\"]*)\"").matcher(Files.readString(DOCKERFILE));

        assertThat(flags.find()).isTrue();
        assertThat(flags.group(1)).isEqualTo(System.getProperty("jvm.image.flags"));
    }

    @Test
    void theImageRunsTheTrainedCacheOnAPinnedJdkReleaseAsANonRootUser() throws IOException {
        String dockerfile = Files.readString(DOCKERFILE);

        // the cache belongs to one JDK build: a floating tag would let the runtime drift from the one that trained it
        assertThat(dockerfile).containsPattern("(?m)^FROM eclipse-temurin:25\\.\\d+\\.\\d+_\\d+-jre");
        assertThat(dockerfile).contains("COPY --chown=1001:0 target/aot/quarkus-app/app.aot ./")
                .contains("-XX:AOTCache=app.aot").contains("USER 1001");
    }
}
