package dev.tickler.observability;

import static dev.tickler.testing.InfraiEmulatorResource.emulator;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.quarkus.agroal.runtime.AgroalDataSourceUtil;
import io.quarkus.datasource.common.runtime.DataSourceUtil;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

import dev.tickler.testing.InfraiEmulatorResource;
import dev.tickler.testing.TracingProfile;

/**
 * A serving instance as production starts it, and as the suite runs it (no JDBC URL): it opens no JDBC pool, and it
 * calls nobody before its first request (a liveness probe is none); the gauges' refresh, which asks the queue for its
 * stats, starts with it.
 */
@QuarkusTest
@TestProfile(TracingProfile.class)
class ServingStartTest {

    @Test
    void aColdInstanceStartsNoJdbcPoolAndCallsNobodyBeforeItsFirstRequest() {
        long queueCallsAtStart = emulator().requests();

        assertThat(AgroalDataSourceUtil.dataSourceInstance(DataSourceUtil.DEFAULT_DATASOURCE_NAME).getHandle().getBean()
                .isActive()).isFalse();
        // the platforms' probes, on either port, are not requests: they wake nothing
        given().get(PublicLiveness.PATH).then().statusCode(200);
        given().port(InfraiEmulatorResource.managementPort()).get(PublicLiveness.PATH).then().statusCode(200);
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5))
                .until(() -> emulator().requests() == queueCallsAtStart);

        given().get("/v1/reminders/1").then().statusCode(401);

        await().atMost(Duration.ofSeconds(10)).until(() -> emulator().requests() > queueCallsAtStart);
    }
}
