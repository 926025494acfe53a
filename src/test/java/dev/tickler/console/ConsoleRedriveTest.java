package dev.tickler.console;

import static dev.tickler.testing.Api.newUser;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URL;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.htmlunit.html.HtmlButton;
import org.htmlunit.html.HtmlCheckBoxInput;
import org.htmlunit.html.HtmlInput;
import org.htmlunit.html.HtmlPage;
import org.junit.jupiter.api.Test;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

import dev.tickler.testing.Api;
import dev.tickler.testing.Database;
import dev.tickler.testing.FutureDates;

/**
 * Redrive from the console: one from its page, one, several or all matching after a confirmation; never without the
 * form token.
 */
@QuarkusTest
class ConsoleRedriveTest {

    @TestHTTPResource("/")
    URL base;

    @Inject
    ConsoleSessions sessions;

    @Inject
    Database database;

    @Test
    void aFailedReminderIsRedrivenFromItsPageInTheOperatorsName() {
        long id = deadLetter(newUser());
        try (ConsoleBrowser browser = new ConsoleBrowser(base)) {
            browser.signIn("test-key-1");
            HtmlPage detail = browser.open("/ops/reminders/" + id);
            assertThat(detail.getHtmlElementById("field-state").asNormalizedText()).isEqualTo("failed");

            HtmlPage after = ConsoleBrowser.click(detail, "redrive");

            assertThat(after.getHtmlElementById("notice").asNormalizedText())
                    .isEqualTo("Redriven: the reminder is on its way again.");
            assertThat(after.getHtmlElementById("field-state").asNormalizedText()).isEqualTo("handed_off");
            assertThat(after.getElementById("redrive")).isNull();
            assertThat(after.getByXPath("//table[@id='timeline']//tr[@class='event-redriven']")).hasSize(1);
        }
        List<Map<String, Object>> events = Api.events(id);
        assertThat(events).filteredOn(event -> event.get("type").equals("redriven")).singleElement()
                .satisfies(event -> assertThat(event).containsEntry("by", "key-1"));
    }

    @Test
    void aFormWithoutTheSessionsTokenChangesNothing() {
        long id = deadLetter(newUser());
        String session = sessions.open("key-1").token();
        String otherSessionsToken = sessions.formToken(sessions.open("key-2"));

        for (String token : new String[] { null, "", "forged", otherSessionsToken }) {
            var request = given().redirects().follow(false).cookie(ConsoleSessions.SESSION_COOKIE, session);
            if (token != null) {
                request.formParam("csrf", token);
            }
            request.formParam("scope", "selected").formParam("id", id);
            request.post("/ops/reminders/" + id + "/redrive").then().statusCode(403);
        }
        given().redirects().follow(false).cookie(ConsoleSessions.SESSION_COOKIE, session)
                .formParam("csrf", "forged").formParam("scope", "selected").formParam("id", id)
                .post("/ops/dead-letters/redrive").then().statusCode(403);
        given().redirects().follow(false).cookie(ConsoleSessions.SESSION_COOKIE, session)
                .formParam("scope", "matching").formParam("user_id", "")
                .post("/ops/dead-letters/redrive").then().statusCode(403);

        assertThat(state(id)).isEqualTo("failed");
        assertThat(Api.events(id)).extracting(event -> event.get("type")).doesNotContain("redriven");
    }

    @Test
    void allMatchingAreRedrivenAfterAConfirmationThatShowsTheirCount() {
        String user = newUser();
        List<Long> ids = List.of(deadLetter(user), deadLetter(user), deadLetter(user));
        try (ConsoleBrowser browser = new ConsoleBrowser(base)) {
            browser.signIn("test-key-1");
            HtmlPage list = browser.open("/ops/dead-letters?user_id=" + user);
            assertThat(list.getHtmlElementById("matching").asNormalizedText()).isEqualTo("3 failed reminders match.");

            HtmlPage confirmation = ConsoleBrowser.click(list, "redrive-matching");
            assertThat(confirmation.getHtmlElementById("count").asNormalizedText()).startsWith("Redrive 3 failed reminders");
            assertThat(ids).allSatisfy(id -> assertThat(state(id)).isEqualTo("failed"));

            HtmlPage done = ConsoleBrowser.click(confirmation, "confirm");
            assertThat(done.getHtmlElementById("notice").asNormalizedText()).isEqualTo("Redrove 3 of 3 reminders.");
            assertThat(done.getHtmlElementById("matching").asNormalizedText()).isEqualTo("0 failed reminders match.");
        }
        assertThat(ids).allSatisfy(id -> assertThat(state(id)).isEqualTo("handed_off"));
    }

    @Test
    void selectedOnesAreRedrivenAndTheOthersStay() {
        String user = newUser();
        long first = deadLetter(user);
        long second = deadLetter(user);
        long third = deadLetter(user);
        try (ConsoleBrowser browser = new ConsoleBrowser(base)) {
            browser.signIn("test-key-1");
            HtmlPage list = browser.open("/ops/dead-letters?user_id=" + user);
            for (long id : new long[] { first, third }) {
                list.<HtmlCheckBoxInput>getFirstByXPath("//input[@type='checkbox' and @value='" + id + "']")
                        .setChecked(true);
            }

            HtmlPage confirmation = ConsoleBrowser.click(list, "redrive-selected");
            assertThat(confirmation.getHtmlElementById("count").asNormalizedText()).startsWith("Redrive 2 failed reminders");
            HtmlPage done = ConsoleBrowser.click(confirmation, "confirm");

            assertThat(done.getHtmlElementById("notice").asNormalizedText()).isEqualTo("Redrove 2 of 2 reminders.");
        }
        assertThat(state(first)).isEqualTo("handed_off");
        assertThat(state(second)).isEqualTo("failed");
        assertThat(state(third)).isEqualTo("handed_off");
    }

    @Test
    void oneIsRedrivenFromTheListAfterItsConfirmation() throws IOException {
        String user = newUser();
        long chosen = deadLetter(user);
        long other = deadLetter(user);
        try (ConsoleBrowser browser = new ConsoleBrowser(base)) {
            browser.signIn("test-key-1");
            HtmlPage list = browser.open("/ops/dead-letters?user_id=" + user);

            HtmlPage confirmation = list.<HtmlButton>getFirstByXPath(
                    "//tr[@id='reminder-" + chosen + "']//button[@name='only']").click();
            assertThat(confirmation.getHtmlElementById("count").asNormalizedText()).startsWith("Redrive 1 failed reminder?");
            HtmlPage done = ConsoleBrowser.click(confirmation, "confirm");

            assertThat(done.getHtmlElementById("notice").asNormalizedText()).isEqualTo("Redrove 1 of 1 reminder.");
        }
        assertThat(state(chosen)).isEqualTo("handed_off");
        assertThat(state(other)).isEqualTo("failed");
    }

    @Test
    void theErrorFilterMatchesTextNotPatterns() {
        String user = newUser();
        long withPercent = database.insertReminder(user, "failed", Instant.now().plus(Duration.ofHours(1)),
                "last_error, attempts", "HTTP 400: 100% refused", 1);
        database.insertReminder(user, "failed", Instant.now().plus(Duration.ofHours(2)), "last_error, attempts",
                "HTTP 400: 1000 refused", 1);
        try (ConsoleBrowser browser = new ConsoleBrowser(base)) {
            browser.signIn("test-key-1");
            HtmlPage list = browser.open("/ops/dead-letters?user_id=" + user + "&error=0%25");

            assertThat(list.getHtmlElementById("matching").asNormalizedText()).isEqualTo("1 failed reminder matches.");
            assertThat(list.getElementById("reminder-" + withPercent)).isNotNull();
        }
    }

    @Test
    void theDueWindowFilterTakesFromInclusiveAndToExclusiveAndRedrivesOnlyThose() {
        String user = newUser();
        // a day the calendar will not overtake, beyond the hand-off window so that the redriven reminder is parked
        LocalDate day = FutureDates.day();
        Instant from = FutureDates.at(day, 0);
        Instant to = FutureDates.at(day.plusDays(1), 0);
        long before = database.insertReminder(user, "failed", FutureDates.at(day.minusDays(1), 10),
                "last_error, attempts", "HTTP 400", 1);
        long inside = database.insertReminder(user, "failed", from, "last_error, attempts", "HTTP 400", 1);
        long atTheEnd = database.insertReminder(user, "failed", to, "last_error, attempts", "HTTP 400", 1);
        try (ConsoleBrowser browser = new ConsoleBrowser(base)) {
            browser.signIn("test-key-1");
            HtmlPage list = browser.open("/ops/dead-letters?user_id=" + user + "&fire_from=" + from + "&fire_to=" + to);
            assertThat(list.getHtmlElementById("matching").asNormalizedText()).isEqualTo("1 failed reminder matches.");
            assertThat(list.getElementById("reminder-" + inside)).isNotNull();
            assertThat(list.<HtmlInput>getHtmlElementById("fire-from").getValue()).isEqualTo(from.toString());

            HtmlPage confirmation = ConsoleBrowser.click(list, "redrive-matching");
            assertThat(confirmation.getHtmlElementById("count").asNormalizedText()).startsWith("Redrive 1 failed reminder");
            HtmlPage done = ConsoleBrowser.click(confirmation, "confirm");

            assertThat(done.getHtmlElementById("notice").asNormalizedText()).isEqualTo("Redrove 1 of 1 reminder.");
            assertThat(done.getUrl().getQuery()).contains("fire_from=" + from.toString().replace(":", "%3A"));
        }
        assertThat(state(before)).isEqualTo("failed");
        assertThat(state(inside)).as("redriven, and parked until the sweep's window").isEqualTo("pending");
        assertThat(Api.events(inside)).extracting(event -> event.get("type")).contains("redriven");
        assertThat(state(atTheEnd)).isEqualTo("failed");
    }

    @Test
    void aDueBoundThatIsNoInstantMatchesNothingAndSaysWhy() {
        String user = newUser();
        long id = deadLetter(user);
        String session = sessions.open("key-1").token();
        String token = sessions.formToken(sessions.verify(session).orElseThrow());
        try (ConsoleBrowser browser = new ConsoleBrowser(base)) {
            browser.signIn("test-key-1");

            // a valid upper bound past the dead letter: only the lower one can make the list empty
            HtmlPage list = browser.open("/ops/dead-letters?user_id=" + user + "&fire_from=yesterday"
                    + "&fire_to=" + FutureDates.at(FutureDates.day(), 0));

            assertThat(list.getWebResponse().getStatusCode()).isEqualTo(400);
            assertThat(list.getHtmlElementById("problems").asNormalizedText())
                    .contains("fire_from must be an ISO-8601 instant with an offset");
            assertThat(list.getHtmlElementById("matching").asNormalizedText()).isEqualTo("0 failed reminders match.");
            assertThat(list.getElementById("redrive-matching")).isNull();
        }
        // a forged or stale form with such a bound redrives nothing, not every failed reminder of the user
        given().redirects().follow(false).cookie(ConsoleSessions.SESSION_COOKIE, session)
                .formParam("csrf", token).formParam("scope", "matching").formParam("user_id", user)
                .formParam("fire_to", "2031-02-30T00:00:00Z")
                .post("/ops/dead-letters/redrive").then().statusCode(303);
        assertThat(state(id)).isEqualTo("failed");
    }

    private long deadLetter(String user) {
        return database.insertReminder(user, "failed", Instant.now().plus(Duration.ofHours(1)),
                "last_error, attempts", "HTTP 400", 1);
    }

    private String state(long id) {
        return database.text("select state from reminders where id = $1", id);
    }
}
