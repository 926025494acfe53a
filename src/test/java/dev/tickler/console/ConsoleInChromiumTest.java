package dev.tickler.console;

import static dev.tickler.testing.Api.api;
import static dev.tickler.testing.Api.createdId;
import static dev.tickler.testing.Api.pushReminderAt;
import static dev.tickler.testing.Api.reminderAt;
import static dev.tickler.testing.NotifierResource.notifier;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import java.io.IOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

import dev.tickler.testing.Api;
import dev.tickler.testing.NotifierStandIn.Reply;

/**
 * The console in a real browser (docs/contract.md#operator-console): headless Chromium through the system's
 * chromedriver, never one Selenium downloads. Where they are not installed the test is skipped, visibly, with what to
 * install; {@code -Dconsole.browser=require} (which CI sets) makes their absence a failure, and
 * {@code -Dconsole.browser=skip} skips it whatever is installed.
 */
@QuarkusTest
class ConsoleInChromiumTest {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final Path SCREENSHOTS = Path.of("target", "console-screenshots");
    private static final Duration DEADLINE = Duration.ofSeconds(20);

    @TestHTTPResource("/")
    URL base;

    private WebDriver browser;

    @BeforeEach
    void startChromium() {
        String wanted = System.getProperty("console.browser", "if-installed");
        Assumptions.assumeFalse("skip".equals(wanted), "console.browser=skip: the real-browser test is skipped");
        if (!"require".equals(wanted)) {
            Assumptions.assumeTrue(Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
                    "Chromium and chromedriver are not installed (apt-get install chromium chromium-driver): the"
                            + " real-browser test is skipped; -Dconsole.browser=require makes this a failure");
        }
        assertThat(CHROMIUM).as("Chromium (Debian package chromium)").isExecutable();
        assertThat(CHROMEDRIVER).as("chromedriver (Debian package chromium-driver)").isExecutable();
        System.setProperty("webdriver.chrome.driver", CHROMEDRIVER.toString());
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,1000");
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile()).usingAnyFreePort().build();
        browser = new ChromeDriver(service, options);
    }

    @AfterEach
    void stopChromium() {
        if (browser != null) {
            browser.quit();
        }
    }

    @Test
    void anOperatorFindsADeadLetterRedrivesItAndSeesItSent() throws IOException {
        Map<String, Object> body = pushReminderAt(Instant.now());
        String user = (String) body.get("user_id");
        notifier().script(user, Reply.status(400));
        long id = createdId(body);
        await().atMost(DEADLINE).untilAsserted(() -> Api.get(id).body("state", equalTo("failed")));
        List<Long> forecast = registerSomeForTheForecast();

        browser.get(base + "ops");
        assertThat(browser.getTitle()).startsWith("Sign in");
        browser.findElement(By.id("key")).sendKeys(Api.API_KEY);
        browser.findElement(By.id("sign-in")).click();
        awaitTitle("Overview");

        browser.findElement(By.linkText("Dead letters")).click();
        awaitTitle("Dead letters");
        browser.findElement(By.name("user_id")).sendKeys(user);
        browser.findElement(By.id("tenant")).sendKeys("elsewhere");
        browser.findElement(By.id("filter")).click();
        await().atMost(DEADLINE).ignoreExceptions().untilAsserted(() -> assertThat(
                browser.findElement(By.id("matching")).getText()).isEqualTo("0 failed reminders match."));
        browser.findElement(By.id("tenant")).clear();
        browser.findElement(By.id("tenant")).sendKeys("default");
        browser.findElement(By.id("filter")).click();
        await().atMost(DEADLINE).ignoreExceptions().untilAsserted(() -> assertThat(
                browser.findElement(By.id("matching")).getText()).isEqualTo("1 failed reminder matches."));
        assertThat(browser.findElement(By.cssSelector("#reminder-" + id + " td.tenant")).getText())
                .isEqualTo("default");
        browser.findElement(By.linkText(String.valueOf(id))).click();
        awaitTitle("Reminder " + id);
        assertThat(browser.findElement(By.id("field-state")).getText()).isEqualTo("failed");
        browser.findElement(By.id("redrive")).click();

        // a refresh while the redrive's own navigation is under way is aborted by it: try again at the next poll
        await().atMost(DEADLINE).pollInterval(Duration.ofMillis(300)).ignoreExceptions().untilAsserted(() -> {
            browser.navigate().refresh();
            assertThat(browser.findElement(By.id("field-state")).getText()).isEqualTo("sent");
        });
        assertThat(browser.findElements(By.cssSelector("#timeline tr.event-redriven"))).hasSize(1);
        assertThat(browser.findElements(By.cssSelector("#timeline tr.event-sent"))).hasSize(1);
        browser.manage().window().setSize(new Dimension(1280, 1500));
        screenshot("reminder-timeline.png");
        browser.manage().window().setSize(new Dimension(1280, 1000));

        browser.findElement(By.linkText("Overview")).click();
        awaitTitle("Overview");
        assertThat(browser.findElements(By.cssSelector("#forecast svg rect"))).hasSize(48);
        assertThat(browser.findElement(By.id("count-sent")).getText()).doesNotEndWith("\n0");
        assertThat(browser.findElement(By.cssSelector("#tenant-default td.tenant")).getText()).isEqualTo("default");
        assertThat(browser.findElements(By.cssSelector("#tenant-default a[href='/ops/dead-letters?tenant=default']")))
                .hasSize(1);
        browser.manage().window().setSize(new Dimension(1280, 1400));
        screenshot("overview.png");
        forecast.forEach(seeded -> api().delete("/v1/reminders/" + seeded).then().statusCode(200));
    }

    private void awaitTitle(String title) {
        await().atMost(DEADLINE).untilAsserted(() -> assertThat(browser.getTitle()).startsWith(title));
    }

    /**
     * Reminders spread over the next two days, so the forecast in the overview's screenshot has a shape; cancelled
     * afterwards, so that no other test finds them due when it moves the clock.
     */
    private static List<Long> registerSomeForTheForecast() {
        Instant now = Instant.now();
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            int hours = 1 + (i * 7) % 47;
            int copies = 1 + i % 3;
            for (int copy = 0; copy < copies; copy++) {
                ids.add(createdId(reminderAt(now.plus(Duration.ofHours(hours)).plusSeconds(copy * 60L))));
            }
        }
        return ids;
    }

    private void screenshot(String name) throws IOException {
        Files.createDirectories(SCREENSHOTS);
        Path taken = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE).toPath();
        Files.copy(taken, SCREENSHOTS.resolve(name), StandardCopyOption.REPLACE_EXISTING);
    }
}
