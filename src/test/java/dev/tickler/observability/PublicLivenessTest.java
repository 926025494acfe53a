package dev.tickler.observability;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;

import dev.tickler.testing.InfraiEmulatorResource;

/**
 * Liveness answers on the public port too, where Knative and Cloud Run send their liveness probes, with what the
 * management port answers; readiness and metrics stay on the management port.
 */
@QuarkusTest
class PublicLivenessTest {

    @Test
    void livenessAnswersOnBothPortsAndReadinessOnlyOnTheManagementPort() {
        given().get(PublicLiveness.PATH).then().statusCode(200).body("status", equalTo("UP"));
        given().port(InfraiEmulatorResource.managementPort()).get(PublicLiveness.PATH).then().statusCode(200)
                .body("status", equalTo("UP"));

        given().get("/q/health/ready").then().statusCode(404);
        given().get("/q/health").then().statusCode(404);
    }
}
