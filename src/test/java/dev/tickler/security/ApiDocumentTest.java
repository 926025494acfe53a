package dev.tickler.security;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

import dev.tickler.testing.InfraiEmulatorResource;

/** The OpenAPI document names the bearer scheme, and per operation the role it needs and its 401 and 403. */
@QuarkusTest
class ApiDocumentTest {

    @Test
    void documentListsTheBearerScheme() {
        JsonPath document = document();

        assertThat(document.getString("components.securitySchemes.bearer.type")).isEqualTo("http");
        assertThat(document.getString("components.securitySchemes.bearer.scheme")).isEqualTo("bearer");
    }

    @Test
    void operationsNameTheRoleTheyNeedAndTheirRefusals() {
        JsonPath document = document();

        assertOperation(document, "'/v1/sweep'.post", Roles.OPERATOR);
        assertOperation(document, "'/v1/reconcile'.post", Roles.OPERATOR);
        assertOperation(document, "'/v1/admin/queues'.get", Roles.OPERATOR);
        assertOperation(document, "'/v1/reminders'.post", Roles.PRODUCT);
        assertOperation(document, "'/v1/reminders/batch'.post", Roles.PRODUCT);
        assertOperation(document, "'/v1/schedules'.post", Roles.PRODUCT);
        assertOperation(document, "'/v1/schedules/{id}/preview'.get", Roles.PRODUCT);
    }

    @Test
    void scheduleOperationsHaveASummaryAndTheirErrors() {
        JsonPath document = document();

        assertThat(document.getString("paths.'/v1/schedules'.post.summary")).isNotBlank();
        assertThat(document.getMap("paths.'/v1/schedules'.post.responses")).containsKeys("201", "400");
        assertThat(document.getMap("paths.'/v1/schedules/{id}'.patch.responses"))
                .containsKeys("200", "400", "404", "409");
        assertThat(document.getMap("paths.'/v1/schedules/{id}/resume'.post.responses")).containsKeys("200", "409");
    }

    private static void assertOperation(JsonPath document, String operation, String role) {
        List<Map<String, List<String>>> security = document.getList("paths." + operation + ".security");
        assertThat(security).as(operation).singleElement()
                .satisfies(requirement -> assertThat(requirement).containsEntry("bearer", List.of(role)));
        assertThat(document.getMap("paths." + operation + ".responses")).as(operation)
                .containsKeys("401", "403");
    }

    private static JsonPath document() {
        return given().port(InfraiEmulatorResource.managementPort()).accept("application/json")
                .get("/q/openapi?format=json").then().statusCode(200).extract().jsonPath();
    }
}
