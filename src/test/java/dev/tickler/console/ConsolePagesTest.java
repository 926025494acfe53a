package dev.tickler.console;

import static dev.tickler.testing.Api.createdId;
import static dev.tickler.testing.Api.reminderAt;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

import java.net.URL;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.htmlunit.html.HtmlPage;
import org.junit.jupiter.api.Test;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

import dev.tickler.testing.Api;
import dev.tickler.testing.InfraiEmulatorResource;

/** What the console's read-only pages show. */
@QuarkusTest
class ConsolePagesTest {

    @TestHTTPResource("/")
    URL base;

    @Test
    void theApiDocumentLeavesTheConsoleOut() {
        Map<String, Object> paths = given().port(InfraiEmulatorResource.managementPort()).accept("application/json")
                .get("/q/openapi?format=json").then().statusCode(200).extract().jsonPath().getMap("paths");

        assertThat(paths).isNotEmpty().allSatisfy((path, operations) -> assertThat(path).doesNotStartWith("/ops"));
    }

    @Test
    void anUnknownConsolePageIsAnHtmlPageInTheLayoutWhileTheApiKeepsProblemDocuments() {
        for (String path : List.of("/ops/anything-unknown", "/ops/dead-letters/unknown", "/ops/reminders/not-an-id")) {
            given().redirects().follow(false).get(path).then()
                    .statusCode(404)
                    .contentType(startsWith("text/html"))
                    .header("Content-Security-Policy", containsString("default-src 'none'"))
                    .body(containsString("<title>Not found · Tickler console</title>"));
        }
        try (ConsoleBrowser browser = new ConsoleBrowser(base)) {
            browser.signIn("test-key-1");

            HtmlPage unknown = browser.open("/ops/anything-unknown");

            assertThat(unknown.getWebResponse().getStatusCode()).isEqualTo(404);
            assertThat(unknown.getTitleText()).isEqualTo("Not found · Tickler console");
            assertThat(unknown.getHtmlElementById("message").asNormalizedText())
                    .isEqualTo("The console has no page at /ops/anything-unknown.");
        }
        given().auth().oauth2(Api.API_KEY).get("/v1/anything-unknown").then()
                .statusCode(404)
                .contentType("application/problem+json")
                .body("type", equalTo("urn:tickler:problem:not-found"));
    }

    @Test
    void searchFindsAReminderByIdAndAUsersReminders() {
        Map<String, Object> body = reminderAt(Instant.now().plus(Duration.ofDays(30)));
        String user = (String) body.get("user_id");
        long first = createdId(body);
        body.put("template", "second_template");
        long second = createdId(body);
        try (ConsoleBrowser browser = new ConsoleBrowser(base)) {
            browser.signIn("test-key-1");

            HtmlPage byId = browser.open("/ops/search?q=" + first);
            assertThat(byId.getByXPath("//table[@id='by-id']//tr[@id='reminder-" + first + "']")).hasSize(1);

            HtmlPage byUser = browser.open("/ops/search?q=" + user);
            assertThat(byUser.getElementById("by-id")).isNull();
            assertThat(byUser.getByXPath("//table[@id='by-user']//tr[starts-with(@id, 'reminder-')]")).hasSize(2);
            assertThat(byUser.getElementById("reminder-" + second)).isNotNull();

            HtmlPage nothing = browser.open("/ops/search?q=u_nobody_" + first);
            assertThat(nothing.getHtmlElementById("no-user-reminders").asNormalizedText()).isEqualTo("None.");
        }
    }

    @Test
    void aReminderPageShowsItsFieldsAndTimeline() {
        long id = createdId(reminderAt(Instant.now().plus(Duration.ofHours(1))));
        try (ConsoleBrowser browser = new ConsoleBrowser(base)) {
            browser.signIn("test-key-1");

            HtmlPage detail = browser.open("/ops/reminders/" + id);

            assertThat(detail.getHtmlElementById("field-state").asNormalizedText()).isEqualTo("handed_off");
            assertThat(detail.getHtmlElementById("field-template").asNormalizedText()).isEqualTo("trial_ending");
            assertThat(detail.getByXPath("//table[@id='timeline']//tr[@class='event-registered']")).hasSize(1);
            assertThat(detail.getByXPath("//table[@id='timeline']//tr[@class='event-published']")).hasSize(1);
            assertThat(detail.getElementById("redrive")).isNull();
            assertThat(browser.open("/ops/reminders/999999999").getWebResponse().getStatusCode()).isEqualTo(404);
        }
    }

    @Test
    void aKeyedReminderShowsItsKeyAndTagsOnItsPageInItsRowAndInItsTimeline() {
        String key = Api.newKey();
        Map<String, Object> body = reminderAt(Instant.now().plus(Duration.ofHours(1)));
        body.put("tags", List.of("cart", "vip"));
        long id = Api.put(key, body).statusCode(201).extract().jsonPath().getLong("id");
        try (ConsoleBrowser browser = new ConsoleBrowser(base)) {
            browser.signIn("test-key-1");

            HtmlPage detail = browser.open("/ops/reminders/" + id);
            assertThat(detail.getHtmlElementById("field-key").asNormalizedText()).isEqualTo(key);
            assertThat(detail.getHtmlElementById("field-tags").asNormalizedText()).isEqualTo("cart, vip");
            assertThat(detail.getByXPath("//table[@id='timeline']//tr[@class='event-registered']/td[3]"))
                    .singleElement().extracting(cell -> ((org.htmlunit.html.HtmlElement) cell).asNormalizedText())
                    .asString().contains("key=" + key).contains("tags=[cart, vip]");

            HtmlPage byUser = browser.open("/ops/search?q=" + body.get("user_id"));
            assertThat(byUser.getByXPath("//tr[@id='reminder-" + id + "']/td[contains(@class, 'key')]"))
                    .singleElement().extracting(cell -> ((org.htmlunit.html.HtmlElement) cell).asNormalizedText())
                    .isEqualTo(key);
        }
    }

    @Test
    void theOverviewDrawsTheLatenessAndTheForecastAndTheQueuesPageEachQueue() {
        createdId(reminderAt(Instant.now().plus(Duration.ofHours(3))));
        try (ConsoleBrowser browser = new ConsoleBrowser(base)) {
            HtmlPage overview = browser.signIn("test-key-1");

            assertThat(overview.getHtmlElementById("count-handed_off").asNormalizedText()).startsWith("handed_off");
            assertThat(overview.getByXPath("//section[@id='lateness']//*[local-name()='rect']")).hasSize(5);
            assertThat(overview.getByXPath("//section[@id='forecast']//*[local-name()='rect']")).hasSize(48);
            assertThat(overview.getWebResponse().getResponseHeaderValue("Content-Security-Policy"))
                    .contains("default-src 'none'");

            HtmlPage queues = browser.open("/ops/queues");
            assertThat(queues.getElementById("queue-user-reminders")).isNotNull();
            assertThat(queues.getElementById("queue-sms-reminders")).isNotNull();
            assertThat(queues.getHtmlElementById("account").asNormalizedText()).contains("credit");
        }
    }
}
