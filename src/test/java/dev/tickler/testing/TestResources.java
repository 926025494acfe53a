package dev.tickler.testing;

import io.quarkus.test.common.QuarkusTestResource;

/** The real parties every @QuarkusTest talks to, started once for the whole run. */
@QuarkusTestResource(PostgresResource.class)
@QuarkusTestResource(InfraiEmulatorResource.class)
public final class TestResources {

    private TestResources() {
    }
}
