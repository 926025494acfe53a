package dev.tickler.console;

import static dev.tickler.testing.Api.api;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import java.util.List;
import java.util.Map;

import org.htmlunit.html.HtmlPage;
import org.junit.jupiter.api.Test;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

import dev.tickler.testing.Api;

/** Searching for a user shows their quiet hours, when they have some. */
@QuarkusTest
class ConsoleQuietHoursTest {

    @TestHTTPResource("/")
    URL base;

    @Test
    void searchByUserShowsTheirQuietHours() {
        String user = Api.newUser();
        api().body(Map.of("tz", "Europe/Berlin", "policy", "skip", "windows", List.of(
                        Map.of("days", List.of("mon", "fri"), "start", "22:00", "end", "07:30", "channels", List.of("sms")),
                        Map.of("start", "12:00", "end", "13:00"))))
                .put("/v1/users/" + user + "/quiet-hours").then().statusCode(200);
        try (ConsoleBrowser browser = new ConsoleBrowser(base)) {
            browser.signIn("test-key-1");

            HtmlPage page = browser.open("/ops/search?q=" + user);

            assertThat(page.querySelector("h2:last-of-type").asNormalizedText()).endsWith("in tenant default");
            assertThat(page.querySelector(".quiet-hours-policy").asNormalizedText())
                    .startsWith("skip in Europe/Berlin");
            assertThat(page.getByXPath("//ul[@class='quiet-hours']/li")).extracting(item -> ((org.htmlunit.html.HtmlElement)
                    item).asNormalizedText()).containsExactly("mon fri 22:00–07:30 sms",
                            "mon tue wed thu fri sat sun 12:00–13:00 email sms push");

            HtmlPage without = browser.open("/ops/search?q=" + Api.newUser());
            assertThat((Object) without.querySelector(".quiet-hours")).isNull();
        }
    }
}
