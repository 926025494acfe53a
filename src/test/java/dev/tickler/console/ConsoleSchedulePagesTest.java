package dev.tickler.console;

import static dev.tickler.testing.Api.api;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import java.time.LocalDate;
import java.time.Month;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.htmlunit.html.HtmlElement;
import org.htmlunit.html.HtmlPage;
import org.junit.jupiter.api.Test;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

import dev.tickler.testing.Api;
import dev.tickler.testing.FutureDates;

/** A user's schedules, reached from the search, and a schedule's page with its next occurrences and DST notes. */
@QuarkusTest
class ConsoleSchedulePagesTest {

    @TestHTTPResource("/")
    URL base;

    @Test
    void searchLeadsToTheUsersSchedulesAndAScheduleShowsItsDstNotes() throws Exception {
        String user = Api.newUser();
        Map<String, Object> body = new HashMap<>();
        body.put("user_id", user);
        body.put("channel", "sms");
        body.put("template", "take_pills");
        body.put("tz", "Europe/Berlin");
        LocalDate summerTimeBegins = FutureDates.lastSundayOf(Month.MARCH);
        body.put("start", summerTimeBegins.minusDays(2) + "T02:30");
        body.put("rrule", "FREQ=DAILY");
        long id = api().body(body).post("/v1/schedules").then().statusCode(201).extract().jsonPath().getLong("id");
        try (ConsoleBrowser browser = new ConsoleBrowser(base)) {
            browser.signIn("test-key-1");

            HtmlPage search = browser.open("/ops/search?q=" + user);
            HtmlPage schedules = ConsoleBrowser.click(search, "user-schedules");
            List<HtmlElement> links = schedules.getByXPath("//table[@id='schedules']//a");
            assertThat(links).singleElement().satisfies(link -> assertThat(link.asNormalizedText())
                    .isEqualTo(String.valueOf(id)));

            HtmlPage schedule = links.get(0).click();
            assertThat(schedule.getHtmlElementById("field-rrule").asNormalizedText()).isEqualTo("FREQ=DAILY");
            assertThat(schedule.getHtmlElementById("field-state").asNormalizedText()).isEqualTo("active");
            // the third occurrence falls on the last Sunday of March: 02:30 does not exist in Berlin, shifted to 03:30
            List<HtmlElement> notes = schedule.getByXPath("//table[@id='preview']//td[@class='dst']");
            assertThat(notes).hasSize(20);
            assertThat(notes.get(2).asNormalizedText()).isEqualTo("gap_shifted");
            assertThat(notes.get(0).asNormalizedText()).isEmpty();
            assertThat(browser.open("/ops/schedules/999999999").getWebResponse().getStatusCode()).isEqualTo(404);
        } finally {
            api().delete("/v1/schedules/" + id).then().statusCode(200);
        }
    }
}
