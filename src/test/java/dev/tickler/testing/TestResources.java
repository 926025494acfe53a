package dev.tickler.testing;

import io.quarkus.test.common.QuarkusTestResource;

/** The real parties every @QuarkusTest talks to, started with the application. */
@QuarkusTestResource(PostgresResource.class)
@QuarkusTestResource(InfraiEmulatorResource.class)
@QuarkusTestResource(NotifierResource.class)
@QuarkusTestResource(CallbackReceiverResource.class)
public final class TestResources {

    private TestResources() {
    }
}
